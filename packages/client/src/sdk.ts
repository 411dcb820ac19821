// The generated SDK on its own, for browsers (the dashboard): none of the Node-only code (undici, TLS options) of
// the client's main entry comes with it.
export * from './generated/sdk.gen.js';
export { createClient, createConfig, type Client } from './generated/client/index.js';
export type * from './generated/types.gen.js';
export { ADMIN_ROLES, ADMIN_OPERATION_ROLES } from './generated/admin-roles.gen.js';

/**
 * The SDK's `auth` for an admin token: given for the bearer scheme only, so that the token never goes out as the
 * session cookie (the contract lets every admin operation take either).
 */
export const bearerOnly =
  (token: string) =>
  (auth: { scheme?: string }): string | undefined =>
    auth.scheme === 'bearer' ? token : undefined;
