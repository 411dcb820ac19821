// One scenario against a server under test and a baseline, measured alternately (A B A B), and the table of them.
import { measure } from './load.mjs';

const MB = 1024 * 1024;
const round2 = (n) => Math.round(n * 100) / 100;

/**
 * Sends the scenario to every server of `servers` at once, its connections split evenly between them (so two
 * instances behind a balancer get 16 connections each of 32), and adds up what came back.
 */
async function measureSide(servers, scenario, seconds) {
  const results = await Promise.all(
    servers.map((server, i) =>
      measure({
        url: `${server.url}/api/audit/${scenario.path}/`,
        body: scenario.body,
        connections: Math.floor(scenario.connections / servers.length) + (i < scenario.connections % servers.length ? 1 : 0),
        seconds,
        amount: scenario.amount && Math.ceil(scenario.amount / servers.length),
        expectedStatus: scenario.expected,
      }),
    ),
  );
  if (results.length === 1) return results[0];
  const sum = (field) => results.reduce((total, r) => total + r[field], 0);
  const statuses = {};
  for (const r of results) for (const [code, count] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
  const durationSeconds = Math.max(...results.map((r) => r.durationSeconds));
  // Latency percentiles do not add up: the worse of the servers' is reported.
  return {
    durationSeconds,
    answered: sum('answered'),
    expected: sum('expected'),
    wrongStatus: sum('wrongStatus'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    statuses,
    requestsPerSecond: sum('expected') / durationSeconds,
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
  };
}

/**
 * Runs `scenario` against `sides.reference` and `sides.baseline` (each one server or a list of servers sharing the
 * load), alternately for `rounds` rounds of `seconds`, and sums up each side's rounds: requests per second (only the
 * expected status counts), mean p50 and p99, wrong answers, and peak RSS (the highest of a side's servers).
 * `onRound(role, result)` sees each measurement; `failures` collects a line per side that answered wrongly.
 */
export async function compareAlternately(scenario, sides, { rounds, seconds, failures, onRound = () => {} }) {
  const measured = { reference: [], baseline: [] };
  const peaks = { reference: 0, baseline: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const role of ['reference', 'baseline']) {
      const servers = [sides[role]].flat();
      for (const server of servers) server.resetPeakRss();
      const result = await measureSide(servers, scenario, seconds);
      for (const server of servers) {
        peaks[role] = Math.max(peaks[role], server.peakRss());
        server.assertAlive();
      }
      measured[role].push(result);
      await onRound(role, result);
    }
  }
  const summary = Object.fromEntries(
    Object.entries(measured).map(([name, results]) => {
      const sum = (field) => results.reduce((total, r) => total + r[field], 0);
      const mean = (field) => Math.round((sum(field) / results.length) * 10) / 10;
      const problems = sum('wrongStatus') + sum('errors') + sum('timeouts');
      const statuses = {};
      for (const r of results) for (const [code, count] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
      return [
        name,
        {
          requestsPerSecond: Math.round((sum('expected') / sum('durationSeconds')) * 10) / 10,
          p50Ms: mean('p50Ms'),
          p99Ms: mean('p99Ms'),
          problems,
          statuses,
          peakRssMiB: Math.round(peaks[name] / MB),
        },
      ];
    }),
  );
  for (const [name, s] of Object.entries(summary)) {
    if (s.problems > 0)
      failures.push(`${scenario.name} (${scenario.connections} connections): ${name} gave ${s.problems} wrong answers or errors ${JSON.stringify(s.statuses)}`);
  }
  const ratio = summary.reference.requestsPerSecond / summary.baseline.requestsPerSecond;
  const p99Ratio = summary.reference.p99Ms / Math.max(summary.baseline.p99Ms, 1);
  return {
    name: scenario.name,
    path: scenario.path,
    connections: scenario.connections,
    bytes: scenario.bytes,
    ...summary,
    ratio: round2(ratio),
    p99Ratio: round2(p99Ratio),
  };
}

/** Prints results of {@link compareAlternately} as a Markdown table; `names` titles the two sides. */
export function printComparisonTable(all, log, names = { reference: 'server', baseline: 'base' }) {
  const header = [
    'scenario',
    'conns',
    `${names.reference} req/s`,
    `${names.baseline} req/s`,
    'ratio',
    `${names.reference} p50/p99 ms`,
    `${names.baseline} p50/p99 ms`,
    'p99 ratio',
    `errors ${names.reference}/${names.baseline}`,
    `peak RSS ${names.reference}/${names.baseline} MiB`,
  ];
  const rows = all.map((r) => [
    r.name,
    String(r.connections),
    String(r.reference.requestsPerSecond),
    String(r.baseline.requestsPerSecond),
    r.ratio.toFixed(2),
    `${r.reference.p50Ms} / ${r.reference.p99Ms}`,
    `${r.baseline.p50Ms} / ${r.baseline.p99Ms}`,
    r.p99Ratio.toFixed(2),
    `${r.reference.problems} / ${r.baseline.problems}`,
    `${r.reference.peakRssMiB} / ${r.baseline.peakRssMiB}`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
  log(line(header));
  log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const row of rows) log(line(row));
}
