/**
 * `load` run on the first call, its promise shared by every call after; a failed load is tried again on the next
 * call rather than kept. For what a start need not wait for (Express and the dashboard, the admin API).
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
