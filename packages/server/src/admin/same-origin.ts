import type { IncomingHttpHeaders } from 'node:http';

/** Methods that change nothing: the only ones a cookie may authorise without proof that the request is the server's own. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const changesSomething = (method: string): boolean => !SAFE_METHODS.has(method.toUpperCase());

/**
 * Whether the browser says the request comes from the server's own pages: an `Origin` equal to `ownOrigin`
 * (scheme://host[:port] of the request), or, without an `Origin`, `Sec-Fetch-Site: same-origin`. A page of another
 * site cannot forge either, which is what protects requests that a cookie authorises (cross-site request forgery).
 */
export function isSameOrigin(headers: IncomingHttpHeaders, ownOrigin: string | undefined): boolean {
  const origin = headers.origin;
  if (origin !== undefined) return ownOrigin !== undefined && origin.toLowerCase() === ownOrigin.toLowerCase();
  return headers['sec-fetch-site'] === 'same-origin';
}

/**
 * Whether the browser says the request comes from another site: what signing in and out refuse, so that no page
 * signs a visitor in as someone else. A request that says nothing (a script, curl) is no browser's and passes.
 */
export function isCrossSite(headers: IncomingHttpHeaders, ownOrigin: string | undefined): boolean {
  if (headers.origin !== undefined) return !isSameOrigin(headers, ownOrigin);
  const site = headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}
