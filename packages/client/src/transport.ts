import { createClient, type Client, type Config } from './generated/client/index.js';
import { AuditClientError, NetworkError, RateLimitedError, RequestRejectedError, ServerError, ServiceUnavailableError, TooLargeError } from './errors.js';
import type { Problem } from './generated/types.gen.js';
import { createTlsFetch, type TlsOptions } from './tls-fetch.js';

/** Default time to wait for an answer. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Where a server is, how to trust it and how long to wait for it: what every client of this package takes. */
export interface TransportOptions extends TlsOptions {
  /** The server's origin, plus the path it is mounted under if any, e.g. `https://collector.example.org:8443`. */
  baseUrl: string;
  /** Milliseconds to wait for each answer before failing with a `NetworkError` (default 60 000). */
  timeoutMs?: number;
  /** Extra headers on every request, e.g. `Prefer: code=429` for the Prism mock. */
  headers?: Record<string, string>;
}

/** The generated SDK's fetch client bound to one server and its TLS trust. */
export interface Transport {
  client: Client;
  /** Options for one SDK call: this client, failures returned rather than thrown, bodies as text, a fresh timeout. */
  call(): { client: Client; throwOnError: false; parseAs: 'text'; signal: AbortSignal };
  /** Closes the connections. */
  close(): Promise<void>;
}

/** Creates the SDK client for `options`; `config` adds settings of the generated client, such as `auth`. */
export function createTransport(options: TransportOptions, config: Config = {}): Transport {
  const { baseUrl, timeoutMs = DEFAULT_TIMEOUT_MS, headers } = options;
  const tls = createTlsFetch(options);
  const client = createClient({ ...config, baseUrl: baseUrl.replace(/\/+$/, ''), fetch: tls.fetch, headers });
  return {
    client,
    call: () => ({ client, throwOnError: false, parseAs: 'text', signal: AbortSignal.timeout(timeoutMs) }),
    close: () => tls.close(),
  };
}

/** What the server answered: status, `Retry-After`, content type and body text (the secret already redacted). */
export interface Answer {
  status: number;
  retryAfter: string | null;
  contentType: string;
  text: string;
}

/**
 * Runs one SDK call and returns the server's answer; a missing answer becomes a `NetworkError`. `secret` (a
 * license key or admin token) is redacted from everything returned or thrown, even if a server echoes it.
 */
export async function exchange(
  send: () => Promise<{ response?: Response; data?: unknown; error?: unknown; request: Request }>,
  secret: string,
): Promise<Answer> {
  const result = await send();
  if (!result.response) {
    const cause = result.error as Error & { cause?: Error };
    const detail = cause?.cause?.message ?? cause?.message ?? String(cause);
    throw new NetworkError(`No answer from ${result.request.url}: ${redact(detail, secret)}`, cause);
  }
  // The SDK hands failures over parsed when they are JSON; the text is what the server sent either way.
  const body = result.response.ok ? result.data : result.error;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  return {
    status: result.response.status,
    retryAfter: result.response.headers.get('retry-after'),
    contentType: result.response.headers.get('content-type') ?? '',
    text: redact(text, secret),
  };
}

/**
 * The error for the statuses every operation shares: 400, 415 and 422 (the request), 413, 429, 503, and anything else
 * as an answer the contract does not describe. `reason` is the server's one-line explanation.
 */
export function commonErrorFor({ status, retryAfter }: Answer, reason: string, problem?: Problem): AuditClientError {
  if (status === 429) return new RateLimitedError(parseRetryAfter(retryAfter), problem);
  if (status === 503) return new ServiceUnavailableError(parseRetryAfter(retryAfter), reason || 'try again later', problem);
  if (status === 413) return new TooLargeError(reason, problem);
  if (status === 400 || status === 415 || status === 422) return new RequestRejectedError(status, reason, problem);
  return new ServerError(status, reason || '(empty body)', problem);
}

/** Seconds from a `Retry-After` header: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The first line of a text, at most 500 characters: enough to say why, short enough for one log line. */
export const firstLine = (text: string) => text.split(/\r?\n/, 1)[0]!.slice(0, 500);
/** No secret in an error message, even if a server echoes it. */
export const redact = (text: string, secret: string) => (secret ? text.replaceAll(secret, '[redacted]') : text);
