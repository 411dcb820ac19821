/** What a request depends on besides the client: a failure of one is the server's, never the client's. */
export type Dependency = 'key store' | 'report store' | 'rate limiter';

/**
 * A store or the rate limiter failed, so the request cannot be served now. Answered 503 with `Retry-After`:
 * never a 401 (the key may be fine), never counted as a failed key check, never a 200.
 */
export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';

  constructor(
    readonly dependency: Dependency,
    override readonly cause: unknown,
  ) {
    super(`${dependency} unavailable`);
  }
}

/** Runs a call to a dependency, turning its failure into a {@link DependencyUnavailableError}. */
export async function callDependency<T>(dependency: Dependency, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new DependencyUnavailableError(dependency, error);
  }
}
