// The admin API through the client generated from the contract: the only way the dashboard talks to the server.
import { bearerOnly, createClient, createConfig, type Client } from '@org/audit-client/sdk';

/** An API call's failure, with the problem's detail when the server sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * A client for this page's own server: with `token`, sent as the bearer token of every admin call; without, the
 * browser sends the session cookie (same origin only, and no Authorization header).
 */
export function adminClient(token?: string): Client {
  const baseUrl = window.location.origin;
  return createClient(createConfig(token ? { baseUrl, auth: bearerOnly(token) } : { baseUrl, credentials: 'same-origin' }));
}

/** The data of a generated SDK call, or an {@link ApiError} with the server's problem detail. */
export async function data<T>(call: Promise<{ data?: T; error?: unknown; response?: Response }>): Promise<T> {
  const { data: value, error, response } = await call;
  if (response?.ok && value !== undefined) return value;
  throw failureOf(response, error);
}

/** The {@link ApiError} of a failed call: its status, and the problem's detail when the server sent one. */
export function failureOf(response: Response | undefined, error: unknown): ApiError {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  return new ApiError(response?.status ?? 0, typeof detail === 'string' ? detail : `The server answered ${response?.status ?? 'nothing'}`);
}
