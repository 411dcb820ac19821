// The bench's baseline: the least work the audit API allows with the reference server's durability.
// node:http + URLSearchParams, keys as SHA-256 hashes in a Map, one prepared INSERT per upload into SQLite
// (WAL, synchronous = FULL, so each answered upload is on disk), or, with DATABASE_URL, one INSERT per upload into
// PostgreSQL through `pg` (a pool of 10 connections, as the reference server's; synchronous_commit on, the
// server's default, so each answered upload is flushed). No routing library, no schema validation.
//
// Usage: node bench/baseline-server.mjs <data-dir>   with PORT (default: any free one) and KEY_HASHES=<hash>[,<hash>…] (SHA-256 hex) in the
// environment, and DATABASE_URL for PostgreSQL. Prints one JSON line {"port":…} once listening on 127.0.0.1.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import sqlite3 from 'sqlite3';

const MAX_BODY_BYTES = 16 * 1024 * 1024; // the reference server's default limit
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: baseline-server.mjs <data-dir>');
mkdirSync(dataDir, { recursive: true });

const keyIds = new Map(
  (process.env.KEY_HASHES ?? '')
    .split(',')
    .filter(Boolean)
    .map((hash, i) => [hash, `key-${i}`]),
);
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

const REPORT_COLUMNS = 'id TEXT PRIMARY KEY, key_id TEXT NOT NULL, host_id TEXT NOT NULL, host_id2 TEXT, received_at TEXT NOT NULL';

/** The report table and a function storing one row durably (resolves once committed), and one closing it all. */
async function openStore() {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    await pool.query(`CREATE TABLE IF NOT EXISTS report (${REPORT_COLUMNS}, content BYTEA NOT NULL)`);
    // The server's default, which the reference server gets too: a commit returns once its WAL is flushed.
    const { rows } = await pool.query('SHOW synchronous_commit');
    if (rows[0].synchronous_commit !== 'on') throw new Error(`synchronous_commit is ${rows[0].synchronous_commit}, not on`);
    return {
      insert: (values) => pool.query({ name: 'insert-report', text: 'INSERT INTO report VALUES ($1, $2, $3, $4, $5, $6)', values }),
      close: () => pool.end(),
    };
  }
  const db = new sqlite3.Database(join(dataDir, 'baseline.sqlite'));
  await new Promise((resolve, reject) =>
    db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE IF NOT EXISTS report (${REPORT_COLUMNS}, content BLOB NOT NULL);`, (error) =>
      error ? reject(error) : resolve(),
    ),
  );
  const statement = db.prepare('INSERT INTO report (id, key_id, host_id, host_id2, received_at, content) VALUES (?, ?, ?, ?, ?, ?)');
  return {
    insert: (values) => new Promise((resolve, reject) => statement.run(values, (error) => (error ? reject(error) : resolve()))),
    close: () => new Promise((resolve) => statement.finalize(() => db.close(resolve))),
  };
}
const store = await openStore();

const answer = (res, status, text) => {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

const server = createServer((req, res) => {
  const license = req.url === '/api/audit/license/';
  if (req.method !== 'POST' || (!license && req.url !== '/api/audit/upload/')) return answer(res, 404, 'Not found');
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return answer(res, 415, 'Unsupported');
  const chunks = [];
  let size = 0;
  let tooLarge = Number(req.headers['content-length']) > MAX_BODY_BYTES;
  if (tooLarge) {
    req.resume();
    return answer(res, 413, 'Too large');
  }
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES && !tooLarge) {
      tooLarge = true;
      answer(res, 413, 'Too large');
    }
    if (!tooLarge) chunks.push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) return;
    const form = new URLSearchParams(Buffer.concat(chunks).toString('latin1'));
    const keyId = keyIds.get(sha256(form.get('licensekey') ?? ''));
    if (license) return keyId ? answer(res, 200, 'Response 100') : answer(res, 401, 'Response 500');
    if (!keyId) return answer(res, 401, 'Invalid license key');
    const data = form.get('data');
    const hostId = form.get('hostid');
    if (!data || !hostId) return answer(res, 400, 'Missing field');
    const id = randomUUID();
    store.insert([id, keyId, hostId, form.get('hostid2'), new Date().toISOString(), Buffer.from(data)]).then(
      () => answer(res, 200, `OK ${id}`),
      () => answer(res, 500, 'Internal server error'),
    );
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => server.close(() => store.close().then(() => process.exit(0))));
}
