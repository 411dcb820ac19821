import {
  AuditClientError,
  ConflictError,
  InvalidAdminTokenError,
  InvalidKeyError,
  NotFoundError,
  RateLimitedError,
  RequestRejectedError,
  ServiceUnavailableError,
  TooLargeError,
} from './errors.js';

/** Exit codes of `audit-client`, as documented in docs/client.md. */
export const EXIT = { ok: 0, failure: 1, refused: 2, rejected: 3, rateLimited: 4, notFound: 5 } as const;

/** The exit code for one error: 2 for a refused license key or admin token, 3 for a rejected request, and so on. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof InvalidKeyError || error instanceof InvalidAdminTokenError) return EXIT.refused;
  if (error instanceof RequestRejectedError || error instanceof TooLargeError || error instanceof ConflictError) return EXIT.rejected;
  if (error instanceof RateLimitedError || error instanceof ServiceUnavailableError) return EXIT.rateLimited;
  if (error instanceof NotFoundError) return EXIT.notFound;
  return EXIT.failure;
}

/**
 * Runs one command's `work` with a client, sets the exit code it returns, and closes the client. The client's
 * errors (the server's answers and network failures) become one line on stderr and their exit code.
 */
export async function runWithClient<Client extends { close(): Promise<void> }>(client: Client, work: (client: Client) => Promise<number>): Promise<void> {
  try {
    process.exitCode = await work(client);
  } catch (error) {
    if (!(error instanceof AuditClientError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = exitCodeFor(error);
  } finally {
    await client.close();
  }
}
