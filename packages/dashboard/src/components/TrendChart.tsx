import { Plot, COLOURS } from './Plot.js';

/** A hardening index over time, drawn by uPlot (oldest on the left). */
export function TrendChart({ points, label }: { points: { at: string; value: number }[]; label: string }) {
  const times = points.map((point) => Date.parse(point.at) / 1000);
  // Reports less than a day apart (or one alone) would get a scale of milliseconds or years: show the day around them.
  const first = Math.min(...times);
  const last = Math.max(...times);
  const middle = (first + last) / 2;
  const onlyOne = times.length > 0 && last - first < 86_400 ? { auto: false, range: [middle - 43_200, middle + 43_200] as [number, number] } : {};
  return (
    <Plot
      label={`${label}: ${points.map((point) => point.value).join(', ')}`}
      data={[times, points.map((point) => point.value)]}
      build={(width, height) => ({
        width,
        height,
        scales: { x: { time: true, ...onlyOne }, y: { range: [0, 100] } },
        axes: [{}, { label: 'Hardening index' }],
        series: [{}, { label, stroke: COLOURS.accent, width: 2, points: { show: true, size: 6 } }],
        legend: { show: false },
      })}
    />
  );
}
