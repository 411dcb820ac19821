// Its own module: both the hooks (what a refusal reports) and the stores (why a store refuses a report) name it.
/**
 * Why a request was refused. Stable strings, safe to use as metric labels: `invalid-key`, `invalid-data`,
 * `not-a-report` (no finished Lynis report: 400), `host-identity-changed` and `host-quota-exceeded` (a store's
 * `ReportRefusedError`: 409, 429), `invalid-request`, `malformed`, `unsupported-type`, `too-large`,
 * `method-not-allowed`, `rate-limited` (a limit of the `rateLimiter`: 429), `busy` (the body budget is full: 503),
 * `too-slow` (the body arrived below the minimum rate: 408) and `unavailable` (a store or the rate limiter failed: 503).
 */
export type RejectionReason =
  | 'invalid-key'
  | 'invalid-data'
  | 'not-a-report'
  | 'host-identity-changed'
  | 'host-quota-exceeded'
  | 'invalid-request'
  | 'malformed'
  | 'unsupported-type'
  | 'too-large'
  | 'method-not-allowed'
  | 'rate-limited'
  | 'busy'
  | 'too-slow'
  | 'unavailable'
  | (string & {});
