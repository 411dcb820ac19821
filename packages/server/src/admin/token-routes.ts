import type { AdminHandler, AdminHandlers } from './operation.js';

// Placeholder while the operations are built: answers 500 until replaced.
const notBuilt = (): never => {
  throw new Error('not built yet');
};

const listMyTokens: AdminHandler<'listMyTokens'> = async () => notBuilt();
const createMyToken: AdminHandler<'createMyToken'> = async () => notBuilt();
const revokeMyToken: AdminHandler<'revokeMyToken'> = async () => notBuilt();
const listAdminTokens: AdminHandler<'listAdminTokens'> = async () => notBuilt();
const createServiceToken: AdminHandler<'createServiceToken'> = async () => notBuilt();
const revokeAdminToken: AdminHandler<'revokeAdminToken'> = async () => notBuilt();

export const tokenRoutes = { listMyTokens, createMyToken, revokeMyToken, listAdminTokens, createServiceToken, revokeAdminToken } satisfies AdminHandlers<
  'listMyTokens' | 'createMyToken' | 'revokeMyToken' | 'listAdminTokens' | 'createServiceToken' | 'revokeAdminToken'
>;
