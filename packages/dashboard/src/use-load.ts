import { useEffect, useState } from 'react';
import { ApiError } from './api.js';

/** What a page's data is: on its way, there, or failed with a message. */
export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; message: string };

/** The part of loaded data a view shows (a page's items), keeping "loading" and "failed" as they are. */
export function mapLoaded<T, U>(loaded: Loaded<T>, part: (value: T) => U): Loaded<U> {
  return loaded.state === 'ready' ? { state: 'ready', value: part(loaded.value) } : loaded;
}

/**
 * Loads a page's data whenever `key` changes; a 401 calls `onUnauthorized` (the token was refused or revoked).
 * A load that is overtaken by a newer one is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, key: string, onUnauthorized: () => void): [Loaded<T>, () => void] {
  const [round, setRound] = useState(0);
  // What is asked now; an answer to an earlier ask is not shown (the page shows "loading" until its own arrives).
  const ask = `${round} ${key}`;
  const [answer, setAnswer] = useState<{ ask: string; loaded: Loaded<T> }>();
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setAnswer({ ask, loaded: { state: 'ready', value } }),
      (error: unknown) => {
        if (!current) return;
        if (error instanceof ApiError && error.status === 401) return onUnauthorized();
        setAnswer({ ask, loaded: { state: 'failed', message: error instanceof Error ? error.message : String(error) } });
      },
    );
    return () => {
      current = false;
    };
  }, [ask]); // eslint-disable-line react-hooks/exhaustive-deps -- `ask` names what `load` loads
  return [answer?.ask === ask ? answer.loaded : { state: 'loading' }, () => setRound((n) => n + 1)];
}
