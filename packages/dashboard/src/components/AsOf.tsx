import { useState } from 'react';
import { asOfText, lastPastDay } from '../as-of.js';

/**
 * The "As of" day of a page that can show a past moment: a date input that puts the day in the URL (`at`), and,
 * while one is chosen, a banner saying which moment the page shows with a link back to now.
 */
export function AsOf({ at, hrefAt, what }: { at?: string; hrefAt(at: string | undefined): string; what: string }) {
  const name = `as-of-${what.replace(/\W+/g, '-')}`;
  // The latest day offered, from when the page opened.
  const [latest] = useState(() => lastPastDay(Date.now()));
  return (
    <>
      <p className="as-of-control">
        <label>
          As of{' '}
          <input
            type="date"
            value={at ?? ''}
            max={latest}
            aria-describedby={name}
            onChange={(event) => {
              window.location.hash = hrefAt(event.target.value || undefined);
            }}
          />
        </label>{' '}
        <span id={name} className="muted">
          {at ? 'the end of that day, UTC' : `now; pick a past day to see ${what} as they were then`}
        </span>
      </p>
      {at && (
        <p className="notice as-of" role="status">
          <strong>{asOfText(at)}</strong>: {what} as they were then, each host as its latest report by then showed it, under the policies and waivers in force
          then. <a href={hrefAt(undefined)}>Back to now</a>
        </p>
      )}
    </>
  );
}
