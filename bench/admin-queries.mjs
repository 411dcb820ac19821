// `npm run bench -- --admin`: the admin API (what the dashboard reads) on a fleet-sized database, on SQLite and on
// PostgreSQL (when DATABASE_URL is set): 10,000 hosts with 30 reports each. `--fleet`: 100,000 hosts with 10 reports
// each (1,000,000 reports). Seeding inserts the rows the report store writes for each report (small real-shaped
// reports of about 1.5 KB, made into rows by the store's own code): the reports, and each host with its groups, tags
// and the findings of its newest report, as uploads would have left them. Then the
// reference server starts on it, with the baseline policy enabled, evaluates every host, and each admin query
// is timed: the median and the slowest of several calls, against a target of 300 ms; the exports are timed to
// their first byte and to their end, with the server's peak RSS while streaming. PostgreSQL is vacuumed and
// analysed after seeding. `--smoke`: 200 hosts × 3 reports (`--fleet --smoke`: 2,000 × 10), to keep it from rotting;
// `--hosts N`: N hosts. Each host's results also have a history from its first report on (and the findings the server
// adopts a lifecycle since then), so that the compliance history reads the daily snapshots the server takes of it.
// `--dialect sqlite` or `--dialect postgresql` measures that one only.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BASELINE_POLICY, createAdminToken, createKey, createPolicy, newFinding, openDatabase, reportRowsOf, sqlDialectOf } from '@org/audit-server';
import * as core from '@org/audit-server-core';
import { startReference, withScratchDatabase } from './servers.mjs';

const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const fleet = process.argv.includes('--fleet');
const hostsIndex = process.argv.indexOf('--hosts');
const [DEFAULT_HOSTS, REPORTS_PER_HOST] = fleet ? (smoke ? [2_000, 10] : [100_000, 10]) : smoke ? [200, 3] : [10_000, 30];
/** `--hosts N`: a fleet of N hosts instead (a mid-size fleet seeds in a fraction of the time, for iterating). */
const HOSTS = hostsIndex > 0 ? Number(process.argv[hostsIndex + 1]) : DEFAULT_HOSTS;
if (!Number.isSafeInteger(HOSTS) || HOSTS < 1) throw new Error(`--hosts: not a number of hosts: ${process.argv[hostsIndex + 1]}`);
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
/** Every 1,000th host's results are waived (for a month): operators keep a few waivers, which pages apply. */
const WAIVED_EVERY = 1_000;
/** The baseline policy was created this long ago: in force over the compliance history's default 30 days. */
const POLICY_AGE_DAYS = 40;
/** Every 10th host's `no-warnings` rule passed at its first report and failed 5 days ago: a change within the history. */
const CHANGED_EVERY = 10;
/**
 * Findings each host fixed within the last 90 days (time to fix's default window), with test ids no report names so
 * the server's adoption of the reports' findings is left as it was: opened, then resolved 1 to 20 days later; on
 * every {@link REGRESSED_EVERY}th host the first came back and was fixed again, a second resolution.
 */
const FIXED_PER_HOST = 4;
const REGRESSED_EVERY = 5;
const log = (line = '') => process.stdout.write(`${line}\n`);

/** The summary and labels as the upload path reads them (a build from before labels reads the summary only). */
const readReport = core.readReportBytes ?? ((bytes) => ({ summary: core.summarizeReportBytes(bytes), labels: null }));

/** A pool of 100 test ids across Lynis' categories, as a fleet's reports name them. */
const TEST_IDS = ['AUTH', 'BOOT', 'FILE', 'FIRE', 'HRDN', 'KRNL', 'LOGG', 'MAIL', 'NETW', 'PKGS'].flatMap((category, c) =>
  Array.from({ length: 10 }, (_, i) => `${category}-${7000 + c * 211 + i * 13}`),
);
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
  return Buffer.from(
    [
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
    ].join('\n'),
  );
}

const hostIdOf = (n) => n.toString(16).padStart(40, '0');
/** The host whose history, reports and diffs are timed. */
const TIMED_HOST = 1;
/** Hosts written per transaction while seeding. */
const SEED_BATCH = 500;

/** When report `r` of host `n` arrived: a day apart, the newest yesterday (ten days earlier for stale hosts). */
const receivedAt = (n, r, now) => new Date(now - (REPORTS_PER_HOST - r + (n % STALE_EVERY === 0 ? STALE_DAYS : 0)) * DAY_MS + n);

/**
 * The rows the report store writes for host `n`'s reports, made by its own `reportRowsOf` (so the report rows are
 * stored as uploads store them): every report row, and the host, label and finding rows of its newest report.
 */
function hostRows(keyId, n, now, dialect) {
  const reports = [];
  let newest;
  for (let r = 0; r < REPORTS_PER_HOST; r++) {
    const content = report(n, r);
    const { summary, labels } = readReport(content) ?? { summary: null, labels: null };
    const sha256 = createHash('sha256').update(content).digest('hex');
    // Stored as it is (`identity`), as the server keeps a report compression would not shrink: seeded reports are
    // not left `pending`, or the server would spend the measured queries compressing a million of them.
    newest = reportRowsOf(
      {
        keyId,
        hostId: hostIdOf(n),
        receivedAt: receivedAt(n, r, now),
        encoding: 'raw',
        size: content.length,
        sha256,
        content,
        summary,
        labels,
      },
      { contentEncoding: 'identity', content, contentSha256: sha256 },
      dialect,
    );
    reports.push(newest.row);
  }
  const {
    host: { reportId, receivedAt: _time, ...host },
    derivation,
  } = newest;
  return {
    reports,
    host: {
      ...host,
      first_seen: reports[0].received_at,
      last_seen: reports.at(-1).received_at,
      report_count: REPORTS_PER_HOST,
      latest_report_id: reportId,
      derived_digest: derivation.digest,
    },
    labels: derivation.labels.map((label) => ({ host_record_id: host.id, ...label })),
    findings: derivation.findings.map((finding) => ({ host_record_id: host.id, ...finding })),
  };
}

/**
 * Fills the database with the rows uploads would have written, by direct inserts: multi-row inserts of bound
 * values, one transaction per {@link SEED_BATCH} hosts (PostgreSQL could COPY, but its `pg` client has no COPY of
 * its own; these keep seeding to minutes).
 */
async function seed(location) {
  const orm = await openDatabase(location);
  const { id: keyId, key } = await createKey(orm, { label: 'bench fleet' });
  const { token } = await createAdminToken(orm, { label: 'bench' });
  // Created before the server starts, as `POST /api/admin/policies/baseline` would: its first pass evaluates it.
  // Back-dated, as the result history below is.
  const policy = await createPolicy(orm, BASELINE_POLICY, new Date(Date.now() - POLICY_AGE_DAYS * DAY_MS));
  const dialect = sqlDialectOf(orm.em);
  const knex = orm.em.getKnex();
  const started = performance.now();
  const now = Date.now();
  // Multi-row inserts of bound values (knex's own insert writes values into the SQL text on SQLite), each under
  // SQLite's limit of bound parameters (32,766 in the bundled SQLite; PostgreSQL's is 65,535).
  const insert = async (trx, table, rows) => {
    const columns = Object.keys(rows[0]);
    const perStatement = Math.floor(32_000 / columns.length);
    for (let i = 0; i < rows.length; i += perStatement) {
      const chunk = rows.slice(i, i + perStatement);
      const placeholders = chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
      await trx.raw(
        `insert into ${table} (${columns.join(', ')}) values ${placeholders}`,
        chunk.flatMap((row) => columns.map((column) => row[column])),
      );
    }
  };
  const revision = (await knex.schema.hasColumn('policy_result_change', 'policy_revision')) ? { policy_revision: 1 } : {};
  const findingLifecycles = await knex.schema.hasTable('finding_transition');
  // A resolution keeps its episode's start (builds from before it look the start up instead).
  const episodeStarts = findingLifecycles && (await knex.schema.hasColumn('finding_transition', 'episode_started_at'));
  for (let first = 0; first < HOSTS; first += SEED_BATCH) {
    const batch = [];
    for (let n = first; n < Math.min(HOSTS, first + SEED_BATCH); n++) batch.push(hostRows(keyId, n, now, dialect));
    await knex.transaction(async (trx) => {
      await insert(
        trx,
        'host',
        batch.map((rows) => rows.host),
      );
      await insert(
        trx,
        'report',
        batch.flatMap((rows) => rows.reports),
      );
      await insert(
        trx,
        'host_label',
        batch.flatMap((rows) => rows.labels),
      );
      await insert(
        trx,
        'host_finding',
        batch.flatMap((rows) => rows.findings),
      );
      await insert(
        trx,
        'policy_result_change',
        batch.flatMap((rows, index) => resultHistoryOf(rows.host, first + index, policy.id, now, dialect, revision)),
      );
      if (findingLifecycles) {
        const fixed = batch.map((rows, index) => fixedFindingsOf(rows.host, first + index, now, dialect, episodeStarts));
        await insert(
          trx,
          'finding',
          fixed.flatMap((rows) => rows.findings),
        );
        await insert(
          trx,
          'finding_transition',
          fixed.flatMap((rows) => rows.transitions),
        );
      }
    });
  }
  // The hosts per finding, as the migration that added the table fills it from the findings already stored.
  if (await knex.schema.hasTable('finding_count')) {
    await knex.raw('insert into finding_count (kind, test_id, hosts) select kind, test_id, count(*) from host_finding group by kind, test_id');
  }
  if (await knex.schema.hasTable('waiver')) {
    const time = (ms) => dialect.toDatabaseTime(new Date(ms));
    const waivers = [];
    for (let n = 0; n < HOSTS; n += WAIVED_EVERY) {
      waivers.push({
        id: randomUUID(),
        policy_id: policy.id,
        rule_id: null,
        host_record_id: hostRows(keyId, n, now, dialect).host.id,
        group_name: null,
        reason: 'bench',
        expires_at: time(now + 30 * DAY_MS),
        created_at: time(now),
        created_by: null,
      });
    }
    await knex.transaction((trx) => insert(trx, 'waiver', waivers));
  }
  // The passes the server runs once on this data after it starts, by the line each logs when done (builds from
  // before finding lifecycles or compliance snapshots have not those passes).
  const settlingPasses = [
    ...((await knex.schema.hasTable('finding')) ? ['findings held before lifecycles were kept are tracked'] : []),
    ...((await knex.schema.hasTable('compliance_snapshot')) ? ['compliance snapshots taken'] : []),
  ];
  await orm.close();
  const inserted = performance.now();
  if (location.databaseUrl) {
    // What autovacuum would have done by then in a deployment (the development server runs without it): without
    // it, no scan reads an index alone and the planner knows nothing of the tables.
    const client = new pg.Client({ connectionString: location.databaseUrl });
    await client.connect();
    await client.query('vacuum analyze');
    await client.end();
  }
  const seconds = (from, to = performance.now()) => Math.round((to - from) / 100) / 10;
  return { key, token, policyId: policy.id, settlingPasses, timings: { insertSeconds: seconds(started, inserted), vacuumSeconds: seconds(inserted) } };
}

/**
 * The {@link FIXED_PER_HOST} findings host `n` fixed, as the server's tracking writes them (its own `newFinding`):
 * each finding's row (resolved) and its transitions (opened, resolved; regressed and resolved again for the first on every
 * {@link REGRESSED_EVERY}th host).
 */
function fixedFindingsOf(host, n, now, dialect, episodeStarts) {
  const time = (ms) => dialect.toDatabaseTime(new Date(ms));
  const findings = [];
  const transitions = [];
  const move = (finding, from, to, at, episodeStart) =>
    transitions.push({
      id: randomUUID(),
      finding_id: finding.id,
      from_state: from,
      to_state: to,
      at: time(at),
      actor: null,
      reason: null,
      ...(episodeStarts ? { episode_started_at: episodeStart === undefined ? null : time(episodeStart) } : {}),
    });
  for (let k = 0; k < FIXED_PER_HOST; k++) {
    const opened = now - (30 + ((n + k * 17) % 55)) * DAY_MS - (n % 24) * 3_600_000;
    let resolved = opened + (1 + ((n * 3 + k) % 20)) * DAY_MS;
    const regressed = k === 0 && n % REGRESSED_EVERY === 0;
    const finding = newFinding(
      host.id,
      { kind: k % 2 === 0 ? 'warning' : 'suggestion', test_id: `FIXED-${1000 + ((n + k * 31) % 40)}`, text: `A finding the host fixed (${k})` },
      'resolved',
      time(opened),
      time(opened),
    );
    move(finding, null, 'open', opened);
    move(finding, 'open', 'resolved', resolved, opened);
    if (regressed) {
      const back = resolved + 2 * DAY_MS;
      move(finding, 'resolved', 'regressed', back);
      resolved += 5 * DAY_MS;
      move(finding, 'regressed', 'resolved', resolved, back);
    }
    findings.push({
      ...finding,
      state_since: time(resolved),
      last_seen: time(resolved - DAY_MS),
      resolved_at: time(resolved),
      regressions: regressed ? 1 : 0,
    });
  }
  return { findings, transitions };
}

/**
 * Host `n`'s result history as the evaluator would have written it from its first report on: every rule of the
 * baseline passing then (`no-warnings` failing on two hosts of three, as the common warning makes it), and on every
 * {@link CHANGED_EVERY}th host of the others `no-warnings` failing from 5 days ago. The server's first evaluation
 * adds today's changes.
 */
function resultHistoryOf(host, n, policyId, now, dialect, revision) {
  const change = (ruleId, status, at) => ({
    id: randomUUID(),
    host_record_id: host.id,
    policy_id: policyId,
    rule_id: ruleId,
    status,
    value: null,
    report_id: host.latest_report_id,
    at: dialect.toDatabaseTime(at),
    ...revision,
  });
  const changes = BASELINE_POLICY.rules.map((rule) =>
    change(rule.id, rule.id === 'no-warnings' && n % 3 !== 0 ? 'fail' : 'pass', new Date(receivedAt(n, 0, now))),
  );
  if (n % CHANGED_EVERY === 0 && n % 3 === 0) changes.push(change('no-warnings', 'fail', new Date(now - 5 * DAY_MS)));
  return changes;
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
  let lines = 0;
  for await (const chunk of response.body) {
    firstByteMs ??= performance.now() - started;
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return {
    path,
    status: response.status,
    firstByteMs: Math.round(firstByteMs ?? performance.now() - started),
    totalMs: Math.round(performance.now() - started),
    bytes,
    // Lines of a CSV export but its heading (JSON exports: not rows).
    rows: lines - 1,
    rssBeforeMiB: Math.round(rssBefore / MB),
    peakRssMiB: Math.round(server.peakRss() / MB),
  };
}

/** Waits until the server's evaluator has a result of the baseline policy for every host. */
async function evaluationOf(server, token, policyId) {
  const started = performance.now();
  for (;;) {
    // Undefined: a poll lost to a closing keep-alive connection, asked again.
    const hosts = await policyHostsOf(server, token, policyId);
    if (hosts && hosts.pass + hosts.fail + hosts.error + hosts.waived >= HOSTS) return { seconds: Math.round((performance.now() - started) / 100) / 10, hosts };
    if (performance.now() - started > EVALUATION_TIMEOUT_MS)
      throw new Error(`the baseline policy evaluated ${JSON.stringify(hosts)} of ${HOSTS} hosts in ${EVALUATION_TIMEOUT_MS / 1000} s`);
    await sleep(1000);
  }
}

/**
 * The baseline policy's host counts, or undefined when the request failed on the network (a keep-alive connection the
 * server closed as the poll reused it, seen on a loaded machine), as long as the server is alive.
 */
async function policyHostsOf(server, token, policyId) {
  try {
    return (await (await fetch(`${server.url}/api/admin/policies/${policyId}`, { headers: { authorization: `Bearer ${token}` } })).json()).hosts;
  } catch (error) {
    server.assertAlive();
    if (!(error instanceof TypeError)) throw error;
    return undefined;
  }
}

/**
 * Waits until the server has logged each of `passes` (the messages of the background passes that run once after
 * seeding: adopting the seeded findings, the compliance snapshots of the seeded history), so that the timed calls
 * measure a settled server rather than one still at that work, as a running server long past its start is.
 */
async function settlingOf(server, passes) {
  const started = performance.now();
  for (;;) {
    const log = readFileSync(server.logFile, 'utf8');
    const pending = passes.filter((message) => !log.includes(`"msg":"${message}"`));
    if (pending.length === 0) return Math.round((performance.now() - started) / 100) / 10;
    server.assertAlive();
    if (performance.now() - started > EVALUATION_TIMEOUT_MS)
      throw new Error(`the server's background passes not done in ${EVALUATION_TIMEOUT_MS / 1000} s: ${pending.join('; ')}`);
    await sleep(1000);
  }
}

async function measure(name, location) {
  const { key, token, policyId, settlingPasses, timings } = await seed(location);
  log(
    `${name}: seeded ${HOSTS} hosts × ${REPORTS_PER_HOST} reports: ${timings.insertSeconds} s inserting the rows the report store would write${location.databaseUrl ? `, ${timings.vacuumSeconds} s vacuum analyze` : ''}`,
  );
  const server = await startReference(location.dataDir, key, { defaults: true, databaseUrl: location.databaseUrl });
  try {
    const evaluation = await evaluationOf(server, token, policyId);
    log(`${name}: the server evaluated the baseline policy for ${HOSTS} hosts ${evaluation.seconds} s after it answered (${JSON.stringify(evaluation.hosts)})`);
    const settling = await settlingOf(server, settlingPasses);
    log(`${name}: the server's passes after seeding (${settlingPasses.join('; ')}) done ${settling} s after that`);
    if (location.databaseUrl) {
      // The evaluator wrote a result per host and rule since the vacuum after seeding: autovacuum would have
      // vacuumed and analysed them by then too.
      const started = performance.now();
      const client = new pg.Client({ connectionString: location.databaseUrl });
      await client.connect();
      await client.query('vacuum analyze policy_result');
      await client.end();
      log(`${name}: vacuum analyze of the results ${Math.round((performance.now() - started) / 100) / 10} s`);
    }
    const get = async (path) => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
    // The server takes the daily compliance snapshots of the seeded history in the background; the history takes
    // any still missing itself: done once here, so that the timed calls read snapshots as a running server's do.
    const snapshotsStarted = performance.now();
    const { points } = await get('/api/admin/compliance/history');
    log(`${name}: the compliance history's snapshots (${points.length} points) ready in ${Math.round((performance.now() - snapshotsStarted) / 100) / 10} s`);
    // Likewise the kept default time-to-fix answer (taken every 5 minutes; a request takes it when there is none).
    const timeToFixStarted = performance.now();
    const { overall } = await get('/api/admin/findings/time-to-fix');
    log(`${name}: the kept time-to-fix answer (${overall.resolved} resolutions) ready in ${Math.round((performance.now() - timeToFixStarted) / 100) / 10} s`);
    const host = (await get(`/api/admin/hosts?hostId=${hostIdOf(TIMED_HOST)}`)).items[0];
    const history = (await get(`/api/admin/hosts/${host.id}`)).hardeningHistory;
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
      // The work queue: compliance, failing policy and rule (waivers applied as read), case-insensitive groups, page 1 and 3.
      ...[
        'compliance=noncompliant',
        'compliance=waived',
        'group=WEB',
        `failingPolicy=${policyId}`,
        `failingPolicy=${policyId}&failingRule=no-warnings`,
      ].flatMap((filter) => [`/api/admin/hosts?${filter}`, `/api/admin/hosts?${filter}&offset=100`]),
      '/api/admin/hosts?sort=compliance',
      `/api/admin/hosts?sort=compliance&order=asc&offset=${Math.floor(HOSTS / 2)}`,
      '/api/admin/facets',
      '/api/admin/facets?field=group&q=we',
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
      // The middle of every result (one per host and rule): the deepest a page reads.
      `/api/admin/policies/${policyId}/results?offset=${(HOSTS * BASELINE_POLICY.rules.length) / 2}`,
      // Page 3, as the default order reads it, searched by host name, and in another order.
      `/api/admin/policies/${policyId}/results?offset=100`,
      `/api/admin/policies/${policyId}/results?hostname=host-1&offset=100`,
      `/api/admin/policies/${policyId}/results?sort=since&offset=100`,
      // The last 30 days, a point per day, of the fleet: 30 from the daily snapshots, today computed now.
      '/api/admin/compliance/history',
      '/api/admin/findings/time-to-fix',
      // A window asked for (the same 90 days, to a minute ago): computed when asked, not kept.
      `/api/admin/findings/time-to-fix?to=${new Date(Date.now() - 60_000).toISOString()}`,
    ];
    const queries = [];
    for (const path of paths) {
      queries.push(await time(server.url, token, path));
      if (!smoke) log(`${name}: ${queries.at(-1).medianMs} / ${queries.at(-1).maxMs} ms ${path}`);
    }
    const exports = [];
    for (const path of [
      '/api/admin/exports/hosts',
      '/api/admin/exports/hosts?format=json',
      '/api/admin/exports/findings',
      `/api/admin/exports/hosts/${host.id}/history`,
      '/api/admin/exports/hosts?compliance=noncompliant&group=WEB',
      '/api/admin/exports/hosts?sort=compliance',
    ]) {
      exports.push(await timeExport(server, token, path));
      const e = exports.at(-1);
      if (!smoke)
        log(
          `${name}: first byte ${e.firstByteMs} ms, end ${e.totalMs} ms, ${e.bytes} bytes (${e.rows} CSV rows), RSS ${e.rssBeforeMiB} → ${e.peakRssMiB} MiB ${path}`,
        );
    }
    return { timings, evaluation: { seconds: evaluation.seconds, hosts: evaluation.hosts }, queries, exports };
  } finally {
    await server.stop();
  }
}

// `--dialect sqlite` or `--dialect postgresql`: that one only.
const dialectIndex = process.argv.indexOf('--dialect');
const dialects = dialectIndex > 0 ? [process.argv[dialectIndex + 1]] : ['sqlite', 'postgresql'];
const runs = [];
if (dialects.includes('sqlite')) {
  const sqliteDir = mkdtempSync(join(tmpdir(), 'audit-admin-bench-'));
  try {
    runs.push(['SQLite', await measure('SQLite', { dataDir: sqliteDir })]);
  } finally {
    rmSync(sqliteDir, { recursive: true, force: true });
  }
}
if (!dialects.includes('postgresql')) {
  // SQLite only, as asked.
} else if (process.env.DATABASE_URL) {
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

const shown = (path) =>
  path
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')
    .replace(/[0-9a-f]{40}/g, '{hostid}')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '{time}');
log();
log(`| query (${HOSTS.toLocaleString('en')} hosts × ${REPORTS_PER_HOST} reports) | ${runs.map(([name]) => `${name} median / max ms`).join(' | ')} |`);
log(`|---|${runs.map(() => '---:').join('|')}|`);
for (let i = 0; i < runs[0][1].queries.length; i++) {
  log(
    `| \`${shown(runs[0][1].queries[i].path)}\` | ${runs.map(([, { queries }]) => `${queries[i].medianMs} / ${queries[i].maxMs}${queries[i].status !== 200 ? ` (${queries[i].status})` : ''}`).join(' | ')} |`,
  );
}
log();
log(`| export | ${runs.map(([name]) => `${name} first byte / total ms, MiB sent, RSS before → peak MiB`).join(' | ')} |`);
log(`|---|${runs.map(() => '---:').join('|')}|`);
for (let i = 0; i < runs[0][1].exports.length; i++) {
  log(
    `| \`${shown(runs[0][1].exports[i].path)}\` | ${runs
      .map(([, { exports }]) => {
        const e = exports[i];
        return `${e.firstByteMs} / ${e.totalMs}, ${(e.bytes / MB).toFixed(1)}, ${e.rssBeforeMiB} → ${e.peakRssMiB}${e.status !== 200 ? ` (${e.status})` : ''}`;
      })
      .join(' | ')} |`,
  );
}
const all = runs.flatMap(([, { queries, exports }]) => [...queries, ...exports]);
const failed = all.filter((r) => r.status !== 200);
const slow = runs.flatMap(([name, { queries, exports }]) => [
  ...queries.filter((r) => r.maxMs > TARGET_MS).map((r) => `${name} ${shown(r.path)} (${r.maxMs} ms)`),
  ...exports.filter((e) => e.firstByteMs > TARGET_MS).map((e) => `${name} ${shown(e.path)} (first byte ${e.firstByteMs} ms)`),
]);
const growing = runs.flatMap(([name, { exports }]) =>
  exports.filter((e) => e.peakRssMiB - e.rssBeforeMiB > EXPORT_RSS_GROWTH_MIB).map((e) => `${name} ${shown(e.path)} (+${e.peakRssMiB - e.rssBeforeMiB} MiB)`),
);
log();
log(`target: every admin query, and every export's first byte, ≤ ${TARGET_MS} ms: ${slow.length === 0 ? 'met' : `MISSED by ${slow.join(', ')}`}`);
log(
  `target: the server's RSS grows by ≤ ${EXPORT_RSS_GROWTH_MIB} MiB while an export streams: ${growing.length === 0 ? 'met' : `MISSED by ${growing.join(', ')}`}`,
);

const outDir = smoke ? join(tmpdir(), 'audit-bench-smoke') : fileURLToPath(new URL('results/', import.meta.url));
const outFile = join(
  outDir,
  `${fleet ? 'fleet' : 'admin'}${dialectIndex > 0 ? `-${dialects[0]}` : ''}${smoke ? '-smoke' : ''}${hostsIndex > 0 ? `-${HOSTS}-hosts` : ''}.json`,
);
mkdirSync(outDir, { recursive: true });
writeFileSync(
  outFile,
  `${JSON.stringify({ date: new Date().toISOString(), hosts: HOSTS, reportsPerHost: REPORTS_PER_HOST, calls: CALLS, runs: Object.fromEntries(runs) }, null, 2)}\n`,
);
log(`written: ${outFile}`);
if (failed.length > 0) {
  log(`FAILED: ${failed.map((r) => `${r.path} answered ${r.status}`).join('; ')}`);
  process.exit(1);
}
