import uPlot from 'uplot';
import type { Overview } from '@org/audit-client/sdk';
import { COLOURS, countRange, dayAxis, daySplits, dayTime, Plot, utcDates, wholeTicks } from './Plot.js';

const DAY = 86_400;

/** How many hosts' latest hardening index falls into each tenth (0–9 … 90–100): one bar each (none where there is no host). */
export function DistributionChart({ buckets }: { buckets: Overview['hardeningIndex']['distribution'] }) {
  const labels = buckets.map((bucket) => `${bucket.from}–${bucket.to}`);
  return (
    <Plot
      label={`Hosts by hardening index: ${buckets.map((bucket, i) => `${labels[i]}: ${bucket.hosts}`).join(', ')}`}
      data={[buckets.map((_, i) => i), buckets.map((bucket) => bucket.hosts || null)]}
      build={(width, height) => ({
        width,
        height,
        scales: { x: { time: false, range: [-0.5, buckets.length - 0.5] }, y: { range: countRange } },
        axes: [
          {
            label: 'Hardening index',
            splits: () => buckets.map((_, i) => i),
            values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
            grid: { show: false },
          },
          { label: 'Hosts', ...wholeTicks },
        ],
        series: [
          {},
          { label: 'Hosts', fill: COLOURS.accentFill, stroke: COLOURS.accent, paths: uPlot.paths.bars!({ size: [0.7, 60] }), points: { show: false } },
        ],
        legend: { show: false },
        cursor: { show: false },
      })}
    />
  );
}

/** The fleet's average hardening index per day over the last 90 days (days without reports are left out). */
export function FleetTrendChart({ trend, until }: { trend: Overview['hardeningTrend']; until: string }) {
  const end = Date.parse(until) / 1000;
  const points = trend.filter((day) => day.average !== null);
  return (
    <Plot
      label={
        points.length === 0
          ? 'Fleet hardening index: no report in the last 90 days'
          : `Fleet hardening index per day: ${points.map((day) => `${day.day}: ${round(day.average!)}`).join(', ')}`
      }
      data={[points.map((day) => dayTime(day.day)), points.map((day) => day.average)]}
      build={(width, height) => ({
        width,
        height,
        ...utcDates,
        scales: { x: { time: true, auto: false, range: [end - 90 * DAY, end + DAY / 2] }, y: { range: [0, 100] } },
        axes: [{ ...dayAxis, splits: daySplits(80) }, { label: 'Average hardening index' }],
        series: [{}, { label: 'Average hardening index', stroke: COLOURS.accent, width: 2, spanGaps: true, points: { show: true, size: 6 } }],
        legend: { show: false },
      })}
    />
  );
}

/** Uploads accepted and refused per day over the last 30 days: a pair of bars a day. */
export function UploadsChart({ days }: { days: Overview['uploadsPerDay'] }) {
  const accepted = days.reduce((sum, day) => sum + day.accepted, 0);
  const refused = days.reduce((sum, day) => sum + day.refused, 0);
  const times = days.map((day) => dayTime(day.day));
  const range: [number, number] = times.length > 0 ? [times[0]! - DAY / 2, times.at(-1)! + DAY / 2] : [0, DAY];
  return (
    <Plot
      label={`Uploads per day over the last ${days.length} days: ${accepted} accepted and ${refused} refused in all`}
      data={[times, days.map((day) => day.accepted || null), days.map((day) => day.refused || null)]}
      build={(width, height) => ({
        width,
        height,
        ...utcDates,
        scales: { x: { time: true, auto: false, range }, y: { range: countRange } },
        axes: [
          { ...dayAxis, splits: daySplits(56), grid: { show: false } },
          { label: 'Uploads', ...wholeTicks },
        ],
        series: [
          {},
          {
            label: 'Accepted',
            fill: COLOURS.accentFill,
            stroke: COLOURS.accent,
            paths: uPlot.paths.bars!({ size: [0.4, 24], align: -1 }),
            points: { show: false },
          },
          { label: 'Refused', fill: COLOURS.badFill, stroke: COLOURS.bad, paths: uPlot.paths.bars!({ size: [0.4, 24], align: 1 }), points: { show: false } },
        ],
        legend: { show: true, live: false },
      })}
    />
  );
}

/** A number with at most one decimal, as the overview shows averages. */
export const round = (value: number) => Math.round(value * 10) / 10;
