// Bytes stored per report: what the database keeps (the `content` column) ÷ the bytes received, over the reports
// a run stored (once the server's compaction pass has compressed them), and over 30 daily reports of one host,
// packed by the server's own code.
import sqlite3 from 'sqlite3';
import { packReport } from '../packages/server/dist/reports/report-content.js';
import { fixtureReport } from './reports.mjs';

const round3 = (n) => Math.round(n * 1000) / 1000;

/** The figures and their targets, for the run's report (`file`: the reference server's SQLite database). */
export async function storageTargets(file) {
  const run = await storedAndReceived(file);
  const daily = await dailyRatio();
  return [
    {
      target: "bytes stored per report ≤ 0.3 × the report (this run's reports)",
      value: `${round3(run.stored / run.received)} × over ${run.reports} reports`,
      met: run.stored <= 0.3 * run.received,
    },
    { target: 'bytes stored per report ≤ 0.1 × on 30 daily reports of one host (aim)', value: `${round3(daily)} ×`, met: daily <= 0.1 },
  ];
}

/**
 * Waits until the server's compaction pass has compressed every report uploads stored as received (`pending`), so
 * that the stored bytes are what the database keeps for good; resolves with how long that took after the last upload.
 */
export async function compactionSettled(file, timeoutMs = 300_000) {
  const started = Date.now();
  while ((await pendingReports(file)) > 0) {
    if (Date.now() - started > timeoutMs) throw new Error(`reports still waiting for compaction ${timeoutMs / 1000} s after the last upload`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return Date.now() - started;
}

const pendingReports = (file) => query(file, "SELECT count(*) AS n FROM report WHERE content_encoding = 'pending'").then((row) => row.n);

const storedAndReceived = (file) => query(file, 'SELECT count(*) AS reports, sum(size) AS received, sum(length(content)) AS stored FROM report');

function query(file, sql) {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => {
      if (error) return reject(error);
      db.get(sql, (queryError, row) => db.close(() => (queryError ? reject(queryError) : resolve(row))));
    });
  });
}

async function dailyRatio() {
  let stored = 0;
  let received = 0;
  for (const report of dailyReports(30)) {
    stored += (await packReport(report)).content.length;
    received += report.length;
  }
  return stored / received;
}

/**
 * A host's reports on `days` days in a row, from the captured one (its key redacted, as stored): each day new
 * start and end times, uptime and hardening index, one to three packages upgraded; every fourth day a new
 * suggestion, every fifth a vulnerable package fewer.
 */
export function dailyReports(days) {
  let lines = fixtureReport()
    .toString('latin1')
    .replace(/^license_key=.*$/m, 'license_key=[redacted]')
    .split('\n');
  let seed = 7;
  const random = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const stamp = (date) => date.toISOString().slice(0, 19).replace('T', ' ');
  const reports = [];
  for (let day = 0; day < days; day++) {
    const start = new Date(Date.UTC(2026, 10, 1 + day, 3, random(60), random(60)));
    const changed = {
      report_datetime_start: stamp(start),
      report_datetime_end: stamp(new Date(start.getTime() + 51_000 + random(9000))),
      uptime_in_seconds: String(86_400 * (day + 3) + random(3600)),
      uptime_in_days: String(day + 3),
      hardening_index: String(60 + random(5)),
    };
    lines = lines.map((line) => {
      const [name] = line.split('=', 1);
      if (changed[name] !== undefined) return `${name}=${changed[name]}`;
      if (name !== 'installed_packages_array') return line;
      const packages = line.split('|');
      for (let k = 0; k <= random(3); k++) packages[1 + random(packages.length - 2)] += `+u${day}`;
      return packages.join('|');
    });
    if (day % 4 === 1)
      lines.splice(
        lines.findIndex((l) => l.startsWith('suggestion[]=')),
        0,
        `suggestion[]=PKGS-73${day}|Update package set ${day}|-|-|`,
      );
    if (day % 5 === 2)
      lines.splice(
        lines.findIndex((l) => l.startsWith('vulnerable_package[]=')),
        1,
      );
    reports.push(Buffer.from(lines.join('\n'), 'latin1'));
  }
  return reports;
}
