import { Agent } from 'undici';

/** How the client verifies the server's certificate. */
export interface TlsOptions {
  /** PEM certificate(s) to trust instead of the system's CAs, e.g. the reference server's self-signed one. */
  ca?: string | Buffer;
  /** Skip certificate verification altogether (like curl's `--insecure`); wins over `ca`, as in curl. */
  insecure?: boolean;
}

/** A `fetch` bound to its own connection pool, and the function that closes that pool. */
export interface TlsFetch {
  fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

/**
 * Node's fetch with the given TLS trust. Without `ca` or `insecure` it is the global fetch, verifying against the
 * system's CAs. Otherwise requests go through an undici `Agent` (the same major version as the undici inside
 * Node 20's fetch) whose connections use that trust.
 */
export function createTlsFetch({ ca, insecure }: TlsOptions): TlsFetch {
  if (!insecure && ca === undefined) return { fetch: globalThis.fetch, close: async () => {} };
  const agent = new Agent({ connect: insecure ? { rejectUnauthorized: false } : { ca } });
  // `dispatcher` is undici's extension of RequestInit, understood by Node's fetch.
  const boundFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    globalThis.fetch(input, { ...init, dispatcher: agent } as RequestInit)) as typeof globalThis.fetch;
  return { fetch: boundFetch, close: () => agent.close() };
}
