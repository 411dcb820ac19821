import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

/** A hardening index over time, drawn by uPlot (oldest on the left). */
export function TrendChart({ points, label }: { points: { at: string; value: number }[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || points.length === 0) return;
    const times = points.map((point) => Date.parse(point.at) / 1000);
    const series: uPlot.AlignedData = [times, points.map((point) => point.value)];
    // One report alone would get a scale of years around it: show the day around it instead.
    const onlyOne = times.length === 1 ? { auto: false, range: [times[0]! - 43_200, times[0]! + 43_200] as uPlot.Range.MinMax } : {};
    const chart = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 220,
        scales: { x: { time: true, ...onlyOne }, y: { range: [0, 100] } },
        axes: [{}, { label: 'Hardening index' }],
        series: [{}, { label, stroke: '#2563eb', width: 2, points: { show: true, size: 6 } }],
        legend: { show: false },
      },
      series,
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(320, element.clientWidth), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [points, label]);
  return <div ref={box} className="chart" role="img" aria-label={`${label}: ${points.map((point) => point.value).join(', ')}`} />;
}
