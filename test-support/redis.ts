/** The Redis server of the tests (`REDIS_URL`); throws, failing the test, when it is not set. */
export function redisUrl(): string {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error('REDIS_URL is not set: these tests need a Redis server, e.g. REDIS_URL=redis://127.0.0.1:6379 (.ci/run sets it)');
  return url;
}
