// `npm run bench -- --admin`: the admin API (what the dashboard reads) on a fleet-sized database, on SQLite and on
// PostgreSQL (when DATABASE_URL is set): 10,000 hosts with 30 reports each. `--fleet`: 100,000 hosts with 10 reports
// each (1,000,000 reports). Each host's newest report goes through the server's own report store (so every table
// the write path keeps is filled as uploads would fill it: hosts, their groups and tags, the findings of their
// newest report), and so does the oldest of the first 1,000 hosts (for real diffs); the others are copies of the
// host's newest made by the database (small real-shaped reports, about 1.5 KB), each a day older. Then the
// reference server starts on it, the baseline policy is enabled and evaluated for every host, and each admin query
// is timed: the median and the slowest of several calls, against a target of 300 ms; the exports are timed to
// their first byte and to their end, with the server's peak RSS while streaming. PostgreSQL is vacuumed and
// analysed after seeding. `--smoke`: 200 hosts × 3 reports (`--fleet --smoke`: 2,000 × 10), to keep it from rotting.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createAdminToken, createKey, openDatabase, OrmReportStore } from '@org/audit-server';
import * as core from '@org/audit-server-core';
import { startReference, withScratchDatabase } from './servers.mjs';

const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const fleet = process.argv.includes('--fleet');
const [HOSTS, REPORTS_PER_HOST] = fleet ? (smoke ? [2_000, 10] : [100_000, 10]) : smoke ? [200, 3] : [10_000, 30];
const CALLS = smoke ? 2 : 7;
const TARGET_MS = 300;
/** How much the server's RSS may grow while an export streams: a page of rows, never the fleet. */
const EXPORT_RSS_GROWTH_MIB = 64;
const EVALUATION_TIMEOUT_MS = 30 * 60_000;
const MB = 1024 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const DAY_MS = 86_400_000;
/** Every 50th host stopped reporting ten days ago: the stale hosts of `seenBefore`. */
const STALE_EVERY = 50;
const STALE_DAYS = 10;
const log = (line = '') => process.stdout.write(`${line}\n`);

/** The summary and labels as the upload path reads them (a build from before labels reads the summary only). */
const readReport = core.readReportBytes ?? ((bytes) => ({ summary: core.summarizeReportBytes(bytes), labels: null }));

/** A pool of 100 test ids across Lynis' categories, as a fleet's reports name them. */
const TEST_IDS = ['AUTH', 'BOOT', 'FILE', 'FIRE', 'HRDN', 'KRNL', 'LOGG', 'MAIL', 'NETW', 'PKGS'].flatMap((category, c) =>
  Array.from({ length: 10 }, (_, i) => `${category}-${7000 + c * 211 + i * 13}`));
/** On two hosts of three: the warning a fleet sees most. */
const COMMON_WARNING = 'PKGS-7392';
const OPERATING_SYSTEMS = ['Debian GNU/Linux 12 (bookworm)', 'Ubuntu 24.04 LTS', 'Rocky Linux 9.4'];

/**
 * A small Lynis report of host `n`, its `r`th: the index drifts, a package is upgraded, and findings come and go as
 * they do from one run to the next (of about 5 warnings and 15 suggestions from the pool, one warning appears every
 * third report and one suggestion alternates); the profile gives the host two groups, a tag, a customer and an alias.
 */
function report(n, r) {
  const warnings = Array.from({ length: 4 }, (_, k) => TEST_IDS[(n * 7 + k * 11) % 100]);
  if (n % 3 !== 0) warnings.push(COMMON_WARNING);
  if (r % 3 === 0) warnings.push(TEST_IDS[(n * 7 + 44) % 100]);
  const suggestions = Array.from({ length: 14 }, (_, k) => TEST_IDS[(n * 3 + k * 5 + 50) % 100]);
  suggestions.push(TEST_IDS[(n * 3 + 51 + (r % 2) * 5) % 100]);
  return Buffer.from([
    '# Lynis Report',
    'report_version_major=1',
    'report_version_minor=0',
    'lynis_version=3.0.8',
    `hostname=host-${String(n).padStart(5, '0')}`,
    `os_name=Linux`,
    `os_fullname=${OPERATING_SYSTEMS[n % 3]}`,
    `system-groups=${n % 2 === 0 ? 'web' : 'db'},${n % 5 === 0 ? 'pci' : 'internal'}`,
    `tags=${n % 7 === 0 ? 'legacy' : 'current'}`,
    `system-customer-name=customer-${n % 20}`,
    `hostname_alias=host-${String(n).padStart(5, '0')}.example.org`,
    `hardening_index=${40 + ((n * 7 + r) % 50)}`,
    `installed_packages_array=|openssl,3.0.${11 + (r % 5)}|jq,1.6|curl,7.88.${r % 2}|`,
    ...(r % 4 === 0 ? ['vulnerable_package[]=jq'] : []),
    ...warnings.map((id) => `warning[]=${id}|Warning ${id} of the fleet|-|-|`),
    ...suggestions.map((id) => `suggestion[]=${id}|Consider the hardening that ${id} describes|-|-|`),
    '',
  ].join('\n'));
}

const hostIdOf = (n) => n.toString(16).padStart(40, '0');
/** Hosts whose oldest report is a real one (the others' is a copy of their newest): diffs are timed on host 1. */
const REAL_HISTORY_HOSTS = Math.min(HOSTS, 1000);
const TIMED_HOST = 1;

/** When report `r` of host `n` arrived: a day apart, the newest yesterday (ten days earlier for stale hosts). */
const receivedAt = (n, r, now) => new Date(now - (REPORTS_PER_HOST - r + (n % STALE_EVERY === 0 ? STALE_DAYS : 0)) * DAY_MS + n);

/** Saves report `r` of hosts 0 to `hosts` - 1 through the report store, 2,000 at a time. */
async function storeReports(store, keyId, r, now, hosts = HOSTS) {
  const saves = [];
  for (let n = 0; n < hosts; n++) {
    const content = report(n, r);
    const { summary, labels } = readReport(content) ?? { summary: null, labels: null };
    saves.push(store.save({
      keyId, hostId: hostIdOf(n), hostId2: undefined, receivedAt: receivedAt(n, r, now),
      encoding: 'raw', size: content.length, sha256: createHash('sha256').update(content).digest('hex'), content, summary, labels,
    }));
    if (saves.length >= 2000) await Promise.all(saves.splice(0));
  }
  await Promise.all(saves);
}

/**
 * Fills in each host's older reports (its oldest too, unless stored for real): copies of its newest report row
 * (whatever columns the store wrote: its content, digest and summary) under a new id, `r` days older, the hardening
 * index column following {@link report}'s drift so that trends move. One statement per day; the hosts' report
 * counts are set at the end.
 */
async function copyReportsBetween(orm, postgresql) {
  const connection = orm.em.getConnection();
  const columns = postgresql
    ? (await connection.execute("select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = 'report'")).map((c) => c.name)
    : (await connection.execute("select name from pragma_table_info('report')")).map((c) => c.name);
  // SQLite has no UUID function: 16 random bytes shaped as a version 4 UUID.
  const hex = 'hex(randomblob(16))';
  const newId = postgresql ? 'gen_random_uuid()' : `lower(substr(${hex}, 1, 8) || '-' || substr(${hex}, 9, 4) || '-4' || substr(${hex}, 13, 3) || '-a' || substr(${hex}, 16, 3) || '-' || substr(${hex}, 19, 12))`;
  for (let r = 0; r < REPORTS_PER_HOST - 1; r++) {
    const daysOlder = REPORTS_PER_HOST - 1 - r;
    const value = {
      id: newId,
      received_at: postgresql ? `r.received_at - interval '${daysOlder} days'` : `r.received_at - ${daysOlder * DAY_MS}`,
      hardening_index: `40 + (r.hardening_index - 40 + ${50 * Math.ceil(daysOlder / 50) - daysOlder}) % 50`,
    };
    const onlyCopiedHistory = r === 0 ? ' where h.report_count = 1' : '';
    await connection.execute(`insert into report (${columns.join(', ')}) select ${columns.map((c) => value[c] ?? `r.${c}`).join(', ')} from report r join host h on h.latest_report_id = r.id${onlyCopiedHistory}`);
  }
  await connection.execute(`update host set report_count = ${REPORTS_PER_HOST}`);
}

/**
 * Fills the database: each host's newest report through the report store (and the oldest of the first
 * {@link REAL_HISTORY_HOSTS}), the others copied.
 */
async function seed(location) {
  const orm = await openDatabase(location);
  const { id: keyId, key } = await createKey(orm, { label: 'bench fleet' });
  const { token } = await createAdminToken(orm, { label: 'bench' });
  const store = new OrmReportStore(orm);
  const started = performance.now();
  const now = Date.now();
  if (REPORTS_PER_HOST > 1) await storeReports(store, keyId, 0, now, REAL_HISTORY_HOSTS);
  await storeReports(store, keyId, REPORTS_PER_HOST - 1, now);
  const stored = performance.now();
  await copyReportsBetween(orm, Boolean(location.databaseUrl));
  await orm.close();
  const copied = performance.now();
  if (location.databaseUrl) {
    // What autovacuum would have done by then in a deployment (the development server runs without it): without
    // it, no scan reads an index alone and the planner knows nothing of the tables.
    const client = new pg.Client({ connectionString: location.databaseUrl });
    await client.connect();
    await client.query('vacuum analyze');
    await client.end();
  }
  const seconds = (from, to = performance.now()) => Math.round((to - from) / 100) / 10;
  return { key, token, timings: { storeSeconds: seconds(started, stored), copySeconds: seconds(stored, copied), vacuumSeconds: seconds(copied) } };
}

/** Times one admin call `CALLS` times (the first warms caches and is not counted). */
async function time(url, token, path) {
  const durations = [];
  let status;
  for (let i = 0; i <= CALLS; i++) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    status = response.status;
    if (i > 0) durations.push(performance.now() - started);
  }
  durations.sort((a, b) => a - b);
  return { path, status, medianMs: Math.round(durations[Math.floor(durations.length / 2)]), maxMs: Math.round(durations.at(-1)) };
}

/**
 * Streams one export and times it: to the first byte (the target) and to the end, with its size and the server's
 * peak RSS while streaming against its RSS just before (the memory must not grow with the fleet).
 */
async function timeExport(server, token, path) {
  await sleep(200);
  const rssBefore = server.rss();
  server.resetPeakRss();
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  let firstByteMs;
  let bytes = 0;
  for await (const chunk of response.body) {
    firstByteMs ??= performance.now() - started;
    bytes += chunk.length;
  }
  return {
    path, status: response.status, firstByteMs: Math.round(firstByteMs ?? performance.now() - started), totalMs: Math.round(performance.now() - started),
    bytes, rssBeforeMiB: Math.round(rssBefore / MB), peakRssMiB: Math.round(server.peakRss() / MB),
  };
}

/** Enables the baseline policy and waits until the server's evaluator has a result for every host. */
async function evaluateBaselinePolicy(server, token) {
  const call = (method, path) => fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const started = performance.now();
  const created = await call('POST', '/api/admin/policies/baseline');
  if (created.status !== 201) throw new Error(`enabling the baseline policy answered ${created.status}`);
  const policy = created.body;
  for (;;) {
    const { hosts } = (await call('GET', `/api/admin/policies/${policy.id}`)).body;
    if (hosts.pass + hosts.fail + hosts.error + hosts.waived >= HOSTS) return { policy, seconds: Math.round((performance.now() - started) / 100) / 10, hosts };
    if (performance.now() - started > EVALUATION_TIMEOUT_MS) throw new Error(`the baseline policy evaluated ${JSON.stringify(hosts)} of ${HOSTS} hosts in ${EVALUATION_TIMEOUT_MS / 1000} s`);
    await sleep(500);
  }
}

async function measure(name, location) {
  const { key, token, timings } = await seed(location);
  log(`${name}: seeded ${HOSTS} hosts × ${REPORTS_PER_HOST} reports: ${timings.storeSeconds} s through the report store (each host's newest, the oldest of ${REAL_HISTORY_HOSTS}), ${timings.copySeconds} s copying the others${location.databaseUrl ? `, ${timings.vacuumSeconds} s vacuum analyze` : ''}`);
  const server = await startReference(location.dataDir, key, { defaults: true, databaseUrl: location.databaseUrl });
  try {
    const evaluation = await evaluateBaselinePolicy(server, token);
    log(`${name}: baseline policy evaluated for ${HOSTS} hosts in ${evaluation.seconds} s (${JSON.stringify(evaluation.hosts)})`);
    const get = async (path) => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
    const host = (await get(`/api/admin/hosts?hostId=${hostIdOf(TIMED_HOST)}`)).items[0];
    const history = (await get(`/api/admin/hosts/${host.id}`)).hardeningHistory;
    const policyId = evaluation.policy.id;
    const paths = [
      '/api/admin/overview',
      '/api/admin/hosts',
      `/api/admin/hosts?offset=${Math.floor(HOSTS / 2)}`,
      '/api/admin/hosts?hostname=host-0999',
      `/api/admin/hosts?hostId=${host.hostId}`,
      `/api/admin/hosts?keyId=${host.keyId}`,
      '/api/admin/hosts?group=web',
      '/api/admin/hosts?tag=legacy',
      `/api/admin/hosts?finding=${COMMON_WARNING}`,
      `/api/admin/hosts?finding=${COMMON_WARNING}&findingKind=warning`,
      `/api/admin/hosts?os=${encodeURIComponent(OPERATING_SYSTEMS[1])}`,
      `/api/admin/hosts?seenBefore=${new Date(Date.now() - 7 * DAY_MS).toISOString()}`,
      '/api/admin/hosts?sort=hostname',
      '/api/admin/hosts?sort=lastSeen&order=asc',
      '/api/admin/hosts?sort=hardeningIndex',
      '/api/admin/hosts?sort=warnings&order=asc',
      `/api/admin/hosts?group=web&tag=legacy&sort=hardeningIndex&offset=${Math.floor(HOSTS / 20)}`,
      `/api/admin/hosts/${host.id}`,
      `/api/admin/hosts/${host.id}/compliance`,
      '/api/admin/reports',
      `/api/admin/reports?hostRecordId=${host.id}`,
      `/api/admin/reports/${history[0].reportId}`,
      `/api/admin/reports/${history[0].reportId}/diff`,
      `/api/admin/reports/${history[0].reportId}/diff?against=${history.at(-1).reportId}`,
      '/api/admin/findings',
      '/api/admin/rejections',
      '/api/admin/keys',
      '/api/admin/policies',
      `/api/admin/policies/${policyId}`,
      `/api/admin/policies/${policyId}/results`,
      `/api/admin/policies/${policyId}/results?status=pass`,
      `/api/admin/policies/${policyId}/results?ruleId=no-warnings&status=fail&offset=${Math.floor(HOSTS / 4)}`,
    ];
    const queries = [];
    for (const path of paths) queries.push(await time(server.url, token, path));
    const exports = [];
    for (const path of ['/api/admin/exports/hosts', '/api/admin/exports/hosts?format=json', '/api/admin/exports/findings', `/api/admin/exports/hosts/${host.id}/history`]) {
      exports.push(await timeExport(server, token, path));
    }
    return { timings, evaluation: { seconds: evaluation.seconds, hosts: evaluation.hosts }, queries, exports };
  } finally {
    await server.stop();
  }
}

const runs = [];
const sqliteDir = mkdtempSync(join(tmpdir(), 'audit-admin-bench-'));
try {
  runs.push(['SQLite', await measure('SQLite', { dataDir: sqliteDir })]);
} finally {
  rmSync(sqliteDir, { recursive: true, force: true });
}
if (process.env.DATABASE_URL) {
  const pgDir = mkdtempSync(join(tmpdir(), 'audit-admin-bench-'));
  try {
    runs.push(['PostgreSQL', await withScratchDatabase(fleet ? 'fleet' : 'admin', (databaseUrl) => measure('PostgreSQL', { dataDir: pgDir, databaseUrl }))]);
  } finally {
    rmSync(pgDir, { recursive: true, force: true });
  }
} else if (fleet) {
  log('npm run bench -- --fleet measures SQLite and PostgreSQL: set DATABASE_URL to a PostgreSQL server (a user allowed to create databases)');
  process.exit(1);
} else {
  log('PostgreSQL: skipped (set DATABASE_URL to measure it too)');
}

const shown = (path) => path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}').replace(/[0-9a-f]{40}/g, '{hostid}').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '{time}');
log();
log(`| query (${HOSTS.toLocaleString('en')} hosts × ${REPORTS_PER_HOST} reports) | ${runs.map(([name]) => `${name} median / max ms`).join(' | ')} |`);
log(`|---|${runs.map(() => '---:').join('|')}|`);
for (let i = 0; i < runs[0][1].queries.length; i++) {
  log(`| \`${shown(runs[0][1].queries[i].path)}\` | ${runs.map(([, { queries }]) => `${queries[i].medianMs} / ${queries[i].maxMs}${queries[i].status !== 200 ? ` (${queries[i].status})` : ''}`).join(' | ')} |`);
}
log();
log(`| export | ${runs.map(([name]) => `${name} first byte / total ms, MiB sent, RSS before → peak MiB`).join(' | ')} |`);
log(`|---|${runs.map(() => '---:').join('|')}|`);
for (let i = 0; i < runs[0][1].exports.length; i++) {
  log(`| \`${shown(runs[0][1].exports[i].path)}\` | ${runs.map(([, { exports }]) => { const e = exports[i]; return `${e.firstByteMs} / ${e.totalMs}, ${(e.bytes / MB).toFixed(1)}, ${e.rssBeforeMiB} → ${e.peakRssMiB}${e.status !== 200 ? ` (${e.status})` : ''}`; }).join(' | ')} |`);
}
const all = runs.flatMap(([, { queries, exports }]) => [...queries, ...exports]);
const failed = all.filter((r) => r.status !== 200);
const slow = runs.flatMap(([name, { queries, exports }]) => [
  ...queries.filter((r) => r.maxMs > TARGET_MS).map((r) => `${name} ${shown(r.path)} (${r.maxMs} ms)`),
  ...exports.filter((e) => e.firstByteMs > TARGET_MS).map((e) => `${name} ${shown(e.path)} (first byte ${e.firstByteMs} ms)`),
]);
const growing = runs.flatMap(([name, { exports }]) => exports.filter((e) => e.peakRssMiB - e.rssBeforeMiB > EXPORT_RSS_GROWTH_MIB).map((e) => `${name} ${shown(e.path)} (+${e.peakRssMiB - e.rssBeforeMiB} MiB)`));
log();
log(`target: every admin query, and every export's first byte, ≤ ${TARGET_MS} ms: ${slow.length === 0 ? 'met' : `MISSED by ${slow.join(', ')}`}`);
log(`target: the server's RSS grows by ≤ ${EXPORT_RSS_GROWTH_MIB} MiB while an export streams: ${growing.length === 0 ? 'met' : `MISSED by ${growing.join(', ')}`}`);

const outDir = smoke ? join(tmpdir(), 'audit-bench-smoke') : fileURLToPath(new URL('results/', import.meta.url));
const outFile = join(outDir, `${fleet ? 'fleet' : 'admin'}${smoke ? '-smoke' : ''}.json`);
mkdirSync(outDir, { recursive: true });
writeFileSync(outFile, `${JSON.stringify({ date: new Date().toISOString(), hosts: HOSTS, reportsPerHost: REPORTS_PER_HOST, calls: CALLS, runs: Object.fromEntries(runs) }, null, 2)}\n`);
log(`written: ${outFile}`);
if (failed.length > 0) {
  log(`FAILED: ${failed.map((r) => `${r.path} answered ${r.status}`).join('; ')}`);
  process.exit(1);
}
