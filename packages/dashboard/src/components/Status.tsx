import type { Loaded } from '../use-load.js';

/** What a page says while its data is on its way, or why it could not load it. */
export function Status({ loaded }: { loaded: Loaded<unknown> }) {
  if (loaded.state === 'loading')
    return (
      <p className="status" aria-live="polite">
        Loading…
      </p>
    );
  if (loaded.state === 'failed')
    return (
      <p className="error" role="alert">
        {loaded.message}
      </p>
    );
  return null;
}
