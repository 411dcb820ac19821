import { formatTime } from '../format.js';

/** A time from the API as `2026-11-23 14:05:09 UTC`, free to wrap between the day and the time in a narrow column. */
export function When({ time }: { time: string | null | undefined }) {
  const text = formatTime(time);
  const cut = text.indexOf(' ');
  if (cut < 0) return <>{text}</>;
  return (
    <>
      <span className="nowrap">{text.slice(0, cut)}</span> <span className="nowrap">{text.slice(cut + 1)}</span>
    </>
  );
}
