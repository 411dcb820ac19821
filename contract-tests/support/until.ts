// Waiting for what a server does in the background, outside a test's expect.poll.
/** Waits until `done` holds (in setup, where expect.poll is not available, or to wait for a condition before acting). */
export async function until(done: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  for (const started = Date.now(); !(await done()); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
  }
}
