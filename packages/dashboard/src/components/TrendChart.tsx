import { Plot, COLOURS } from './Plot.js';

/** A hardening index over time, drawn by uPlot (oldest on the left). */
export function TrendChart({ points, label }: { points: { at: string; value: number }[]; label: string }) {
  const times = points.map((point) => Date.parse(point.at) / 1000);
  // One report alone would get a scale of years around it: show the day around it instead.
  const onlyOne = times.length === 1 ? { auto: false, range: [times[0]! - 43_200, times[0]! + 43_200] as [number, number] } : {};
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
