import { formatTime, formatUtc } from '../format.js';

/**
 * A time from the API in the browser's time zone (`2026-11-23 15:05:09 GMT+1`), its UTC time on hover, free to wrap
 * between the day and the time in a narrow column.
 */
export function When({ time }: { time: string | null | undefined }) {
  const text = formatTime(time);
  const cut = text.indexOf(' ');
  if (cut < 0) return <>{text}</>;
  return (
    <time dateTime={formatUtc(time)} title={formatUtc(time)}>
      <span className="nowrap">{text.slice(0, cut)}</span> <span className="nowrap">{text.slice(cut + 1)}</span>
    </time>
  );
}
