// `npm run bench -- --postgres`: the upload scenarios with the reference server on PostgreSQL, against the baseline
// server on PostgreSQL (bare `pg`, one INSERT per upload, synchronous_commit on), alternately as in the main run;
// then two reference instances sharing one database against one instance. Needs DATABASE_URL (a user allowed to
// create databases): each side gets a scratch database, dropped at the end. `--smoke`: a second per scenario.
// `--only <text>`: only the scenarios whose name contains the text (the two-instance step too, if it matches).
// Part of the full `npm run bench` when DATABASE_URL is set.
import { cpus } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { compareAlternately, printComparisonTable } from './compare.mjs';
import { FLEET_HOSTS, fixtureReport, fleetUploadBodies, syntheticReport, uploadBody } from './reports.mjs';
import { createReferenceKey, startBaseline, startReference, withScratchDatabase } from './servers.mjs';

const KB = 1024;
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const settings = smoke ? { seconds: 1, rounds: 1 } : { seconds: 4, rounds: 2 };
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;
const picked = (name) => !only || name.includes(only);
const CONNECTIONS = 32;
const RATIO_TARGET = 0.9;
const log = (line = '') => process.stdout.write(`${line}\n`);

if (!process.env.DATABASE_URL) {
  log(
    'npm run bench -- --postgres measures the server on PostgreSQL: set DATABASE_URL to a PostgreSQL server (a user allowed to create databases); each run creates and drops scratch databases on it',
  );
  process.exit(1);
}

const countRows = async (url) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('select count(*) as n from report')).rows[0].n);
  } finally {
    await client.end();
  }
};

const failures = [];
const uploadsAnswered200 = { reference: 0, baseline: 0 };
const workDir = mkdtempSync(join(tmpdir(), 'audit-bench-pg-'));
const output = await withScratchDatabase('reference', (referenceUrl) =>
  withScratchDatabase('baseline', async (baselineUrl) => {
    const server = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await server.connect();
    const {
      rows: [{ server_version: version }],
    } = await server.query('show server_version');
    const {
      rows: [{ fsync }],
    } = await server.query('show fsync');
    await server.end();
    log(`audit server benchmark on PostgreSQL${smoke ? ' (smoke run: short, numbers not meaningful)' : ''}`);
    log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; PostgreSQL ${version} on the same machine (fsync ${fsync})`,
    );
    log('server: the reference server from the built CLI with DATABASE_URL, limits raised as in the main run');
    log('baseline: node:http + URLSearchParams, a pg pool of 10, one INSERT per upload, synchronous_commit on');
    log(`each in a scratch database of its own; ${settings.rounds} round(s) of ${settings.seconds} s each, alternately`);
    log();

    const key = createReferenceKey(join(workDir, 'reference'), { databaseUrl: referenceUrl });
    const first = await startReference(join(workDir, 'reference'), key, { databaseUrl: referenceUrl });
    const baseline = await startBaseline(join(workDir, 'baseline'), key, { databaseUrl: baselineUrl });
    const started = [first, baseline];
    try {
      const fixture = fixtureReport();
      const all = [
        { name: `upload, Lynis fixture (${Math.round(fixture.length / KB)} KB), PostgreSQL`, body: uploadBody(fixture, key) },
        { name: 'upload, 10 KB report, PostgreSQL', body: uploadBody(syntheticReport(10 * KB), key) },
        { name: 'upload, 150 KB report, PostgreSQL', body: uploadBody(syntheticReport(150 * KB), key) },
        // A fleet's uploads: the server commits groups of different hosts at once (one host's wait for each other).
        { name: `upload, Lynis fixture, ${FLEET_HOSTS} hosts, PostgreSQL`, body: fleetUploadBodies(fixture, key) },
      ].map((s) => ({ ...s, path: 'upload', expected: 200, connections: CONNECTIONS }));
      const scenarios = all.filter((s) => picked(s.name));
      const count200 = (role, measured) => (uploadsAnswered200[role] += measured.statuses[200] ?? 0);
      const options = { ...settings, failures, onRound: count200 };
      // Warm-up of both: the JIT and the pools, not measured.
      await compareAlternately(all[0], { reference: first, baseline }, { ...options, rounds: 1, seconds: smoke ? 0.5 : 2 });

      const results = [];
      for (const scenario of scenarios) {
        const result = await compareAlternately(scenario, { reference: first, baseline }, options);
        results.push(result);
        log(`${result.name}: reference ${result.reference.requestsPerSecond}/s, baseline ${result.baseline.requestsPerSecond}/s (× ${result.ratio})`);
      }

      // A second instance on the same database, the load split between the two, against the first alone.
      const scalingName = 'upload, Lynis fixture, 2 instances vs 1';
      let scaling;
      if (picked(scalingName)) {
        const second = await startReference(join(workDir, 'reference-2'), key, { databaseUrl: referenceUrl, name: 'reference-2' });
        started.push(second);
        scaling = await compareAlternately(
          { ...all[0], name: scalingName },
          { reference: [first, second], baseline: first },
          {
            ...options,
            onRound: (role, measured) => (uploadsAnswered200.reference += measured.statuses[200] ?? 0),
          },
        );
        log(`${scaling.name}: two instances ${scaling.reference.requestsPerSecond}/s, one ${scaling.baseline.requestsPerSecond}/s (× ${scaling.ratio})`);
      }

      for (const s of started) await s.stop();
      const stored = { reference: await countRows(referenceUrl), baseline: await countRows(baselineUrl) };
      for (const role of ['reference', 'baseline']) {
        if (stored[role] < uploadsAnswered200[role]) failures.push(`${role}: ${uploadsAnswered200[role]} uploads answered 200 but only ${stored[role]} stored`);
      }

      log();
      printComparisonTable(results, log);
      log();
      if (scaling) {
        printComparisonTable([scaling], log, { reference: '2 instances', baseline: '1 instance' });
        log();
      }
      log(
        `uploads answered 200 / reports stored: reference ${uploadsAnswered200.reference} / ${stored.reference}, baseline ${uploadsAnswered200.baseline} / ${stored.baseline}`,
      );
      const targets = results.map((r) => ({
        target: `${r.name}: ≥ ${RATIO_TARGET} × baseline, p99 ≤ 1.3 ×`,
        value: `× ${r.ratio}, p99 × ${r.p99Ratio}`,
        met: r.ratio >= RATIO_TARGET && r.p99Ratio <= 1.3,
      }));
      log();
      log('targets:');
      for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.value}`);
      if (scaling)
        log(
          `  (two instances on one database: × ${scaling.ratio} of one; no target: on ${cpus().length} cores the instances and PostgreSQL share the same CPUs)`,
        );
      return {
        date: new Date().toISOString(),
        mode: smoke ? 'smoke' : 'full',
        postgresql: version,
        settings,
        scenarios: results,
        twoInstances: scaling,
        uploads: { answered200: uploadsAnswered200, stored },
        targets,
      };
    } finally {
      for (const s of started) await s.stop();
    }
  }),
);
rmSync(workDir, { recursive: true, force: true });

// A partial run (`--only`) writes no results: they would stand for a full one.
if (!only) {
  const outDir = smoke ? join(tmpdir(), 'audit-bench-smoke') : fileURLToPath(new URL('results/', import.meta.url));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, smoke ? 'postgres-smoke.json' : 'postgres.json'), `${JSON.stringify(output, null, 2)}\n`);
  log();
  log(`written: ${join(outDir, smoke ? 'postgres-smoke.json' : 'postgres.json')}`);
}
if (failures.length) {
  log();
  log('FAILED:');
  for (const failure of failures) log(`  ${failure}`);
  process.exitCode = 1;
}
