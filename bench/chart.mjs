// The size-sweep chart: uploads per second against report size, one line per server, as a standalone SVG.

const WIDTH = 720;
const HEIGHT = 420;
const MARGIN = { left: 70, right: 150, top: 40, bottom: 60 };
const COLORS = { reference: '#d1495b', baseline: '#00798c' };

const escapeXml = (text) => String(text).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);
const formatBytes = (bytes) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${Math.round(bytes / 1024)} KB`);

/** `points`: [{ bytes, reference, baseline }] (requests/s). Both axes logarithmic. */
export function throughputChart(points, title) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const values = points.flatMap((p) => [p.reference, p.baseline]).filter((v) => v > 0);
  const yMin = 10 ** Math.floor(Math.log10(Math.min(...values, 1)));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...values, 10)));
  const xMin = Math.log10(points[0].bytes);
  const xMax = Math.log10(points.at(-1).bytes);
  const x = (bytes) => MARGIN.left + (xMax === xMin ? 0 : ((Math.log10(bytes) - xMin) / (xMax - xMin)) * plotWidth);
  const y = (value) => MARGIN.top + plotHeight - ((Math.log10(Math.max(value, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * plotHeight;

  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let tick = yMin; tick <= yMax; tick *= 10) {
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`);
  }
  for (const { bytes } of points) {
    parts.push(`<line x1="${x(bytes)}" x2="${x(bytes)}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}" stroke="#eee"/>`);
    parts.push(`<text x="${x(bytes)}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle">${formatBytes(bytes)}</text>`);
  }
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 14}" text-anchor="middle">report size (log scale)</text>`);
  parts.push(`<text transform="translate(18 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">stored uploads per second (log scale)</text>`);
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#888"/>`);
  for (const [i, server] of ['reference', 'baseline'].entries()) {
    const line = points.map((p) => `${x(p.bytes).toFixed(1)},${y(p[server]).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${line}" fill="none" stroke="${COLORS[server]}" stroke-width="2.5"/>`);
    for (const p of points) parts.push(`<circle cx="${x(p.bytes).toFixed(1)}" cy="${y(p[server]).toFixed(1)}" r="3.5" fill="${COLORS[server]}"/>`);
    const legendY = MARGIN.top + 20 + i * 22;
    parts.push(
      `<line x1="${WIDTH - MARGIN.right + 16}" x2="${WIDTH - MARGIN.right + 40}" y1="${legendY}" y2="${legendY}" stroke="${COLORS[server]}" stroke-width="2.5"/>`,
    );
    parts.push(`<text x="${WIDTH - MARGIN.right + 46}" y="${legendY + 4}">${server}</text>`);
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
