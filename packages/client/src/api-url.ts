/** Where the API lives, split the way `createAuditClient` takes it. */
export interface ApiLocation {
  baseUrl: string;
  toolSegment: string;
  legacyPaths: boolean;
}

/** The API prefix at the end of a URL: `/api/<segment>` or the legacy `/api/v1/<segment>`. */
const API_PREFIX = /^(.*)\/api\/(v1\/)?([A-Za-z0-9._~-]+)\/?$/;

/**
 * Splits an API URL such as `https://collector:8443/api/audit` (what Lynis builds from `upload-server`, without
 * `/license/` or `/upload/`) into the server's base URL, the tool segment and whether it is the legacy prefix.
 */
export function parseApiUrl(url: string): ApiLocation {
  const parsed = parseHttpUrl(url);
  const match = API_PREFIX.exec(parsed.pathname);
  if (!match || parsed.search || parsed.hash) {
    throw new TypeError(`The API URL must end in /api/<tool> or /api/v1/<tool>, e.g. https://collector:8443/api/audit (got ${url})`);
  }
  return { baseUrl: `${parsed.origin}${match[1]}`, toolSegment: match[3]!, legacyPaths: match[2] !== undefined };
}

/**
 * The server's base URL (origin plus the path it is mounted under) from either an API URL such as
 * `https://collector:8443/api/audit`, so one `AUDIT_URL` serves uploads and admin commands, or the base URL itself.
 */
export function parseServerUrl(url: string): string {
  const parsed = parseHttpUrl(url);
  if (parsed.search || parsed.hash) throw new TypeError(`The server URL cannot have a query or fragment (got ${url})`);
  const apiPrefix = API_PREFIX.exec(parsed.pathname);
  return `${parsed.origin}${apiPrefix ? apiPrefix[1] : parsed.pathname.replace(/\/+$/, '')}`;
}

/** The URL Lynis builds from an `upload-server` profile value: always https, the value as it is. */
export const lynisApiUrl = (uploadServer: string) => `https://${uploadServer}`;

/** Parses an http(s) URL, with an error that says which rule it breaks. */
function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TypeError(`Not an http(s) URL: ${url}`);
  return parsed;
}
