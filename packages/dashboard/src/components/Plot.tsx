import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

/** Colours of the charts: the page's accent, and its colour for what went wrong. */
export const COLOURS = { accent: '#2563eb', accentFill: 'rgba(37, 99, 235, 0.75)', bad: '#b91c1c', badFill: 'rgba(185, 28, 28, 0.75)' };

/** Days (UTC, as the API counts them) on a time axis, whatever the browser's time zone. */
export const utcDates = { tzDate: (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC') };

/** Ticks of a time axis labelled with the UTC day they fall on (`Nov 22`), never a time of day. */
export const dayAxis: Partial<uPlot.Axis> = {
  values: (_u, splits) => splits.map((seconds) => new Date(seconds * 1000).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' })),
};

/** Tick positions at whole days (UTC noon, where day bars sit), about one per `space` pixels. */
export const daySplits =
  (space = 56): uPlot.Axis.Splits =>
  (u, _axis, min, max) => {
    const first = Math.ceil((min - 43_200) / 86_400) * 86_400 + 43_200;
    const days = Math.max(1, Math.floor((max - first) / 86_400) + 1);
    const step = Math.max(1, Math.ceil(days / Math.max(1, u.bbox.width / devicePixelRatio / space)));
    return Array.from({ length: Math.ceil(days / step) }, (_, i) => first + i * step * 86_400).filter((tick) => tick <= max);
  };

/** A UTC day (`2026-11-22`) as a uPlot time: seconds since the epoch, at the day's noon so bars sit over their day. */
export const dayTime = (day: string) => Date.parse(`${day}T12:00:00Z`) / 1000;

/**
 * A uPlot chart that follows its box's width. `build` makes the options for a width; the chart is drawn again when
 * `data` changes (compared by value). uPlot writes only text nodes and CSSOM styles, which the page's
 * Content-Security-Policy allows; only numbers and the page's own labels reach it, never text from a host.
 */
export function Plot({
  label,
  build,
  data,
  height = 220,
}: {
  label: string;
  build: (width: number, height: number) => uPlot.Options;
  data: uPlot.AlignedData;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const signature = JSON.stringify(data);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = () => Math.max(260, element.clientWidth - 16);
    const chart = new uPlot(build(width(), height), data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [signature, height]); // eslint-disable-line react-hooks/exhaustive-deps -- `signature` stands for `data`; `build` follows it
  return <div ref={box} className="chart" role="img" aria-label={label} />;
}

/** A y scale from 0 to a little over the largest value, at least 1: counts of hosts or uploads. */
export const countRange: uPlot.Scale.Range = (_u, _min, max) => [0, Math.max(1, Math.ceil((max ?? 0) * 1.15))];

/** Axis ticks at whole numbers only (a count of half a host means nothing). */
export const wholeTicks: Partial<uPlot.Axis> = { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000] };
