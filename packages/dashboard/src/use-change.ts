import { useState } from 'react';
import { ApiError } from './api.js';

/** Runs one change through the admin API, then reloads the page's data. */
export type Change = (work: () => Promise<void>) => Promise<void>;

/**
 * Runs changes a page makes through the admin API: each one, then `reload`; a refused token calls
 * `onUnauthorized`, any other failure becomes the `problem` the page shows.
 */
export function useChange(reload: () => void, onUnauthorized: () => void): { problem: string | undefined; change: Change } {
  const [problem, setProblem] = useState<string>();
  const change = async (work: () => Promise<void>) => {
    setProblem(undefined);
    try {
      await work();
      reload();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return onUnauthorized();
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return { problem, change };
}
