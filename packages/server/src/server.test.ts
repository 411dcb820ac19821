import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MikroORM } from '@mikro-orm/sqlite';
import { hashLicenseKey } from '@org/audit-server-core';
import { Registry } from 'prom-client';
import { parseServerConfig, readConfigFile } from './config.js';
import { readinessProblem } from './ops.js';
import { openDatabase } from './database.js';
import { LicenseKeyRecord, ReportRecord } from './entities.js';
import { createKey, importKey, listKeys, revokeKey } from './key-admin.js';
import { OrmKeyStore, OrmReportStore } from './stores.js';
import { loadTlsIdentity } from './tls.js';

let dataDir: string;
let orm: MikroORM;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'audit-server-test-'));
  orm = await openDatabase(dataDir);
});
afterEach(async () => {
  await orm.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('database', () => {
  it('migrations build exactly the schema the entities describe', async () => {
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
  });

  it('is durable on commit: WAL with synchronous FULL', async () => {
    const connection = orm.em.getConnection();
    expect(await connection.execute('pragma journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(await connection.execute('pragma synchronous')).toEqual([{ synchronous: 2 }]);
  });

  it('reopens an existing data directory without migrating again', async () => {
    await createKey(orm, { label: 'kept' });
    await orm.close();
    orm = await openDatabase(dataDir);
    expect((await listKeys(orm)).map((k) => k.label)).toEqual(['kept']);
  });
});

describe('keys', () => {
  it('stores only the hash and a short prefix of a created key', async () => {
    const { id, key } = await createKey(orm, { label: 'web servers' });
    const record = await orm.em.fork().findOneOrFail(LicenseKeyRecord, { id });
    expect(record.keyHash).toBe(hashLicenseKey(key));
    expect(record.prefix).toBe(key.slice(0, 8));
    const file = await readFile(join(dataDir, 'audit.sqlite'));
    expect(file.includes(key)).toBe(false);
  });

  it('looks keys up as valid, revoked or unknown', async () => {
    const { id, key } = await createKey(orm);
    const store = await OrmKeyStore.open(orm);
    expect(await store.lookup(key)).toEqual({ state: 'valid', keyId: id });
    expect(await store.lookup(`${key}0`)).toEqual({ state: 'unknown' });
    expect(await revokeKey(orm, id)).toBe(true);
    await store.refresh();
    expect(await store.lookup(key)).toEqual({ state: 'revoked', keyId: id });
    await store.close();
    expect(await revokeKey(orm, id)).toBe(true);
    expect(await revokeKey(orm, '00000000-0000-0000-0000-000000000000')).toBe(false);
  });

  it('imports only keys Lynis can send unchanged', async () => {
    const id = await importKey(orm, 'deadbeef-0000-0000-0000-000000000001');
    const store = await OrmKeyStore.open(orm);
    expect(await store.lookup('deadbeef-0000-0000-0000-000000000001')).toEqual({ state: 'valid', keyId: id });
    await store.close();
    await expect(importKey(orm, 'Test-Key-0001')).rejects.toThrow(/only a-f, 0-9 and "-"/);
  });

  it('lists keys with state and last upload, never the key', async () => {
    const first = await createKey(orm, { label: 'first' });
    const second = await createKey(orm, { label: 'second' });
    await revokeKey(orm, second.id);
    const receivedAt = new Date('2026-11-01T10:00:00Z');
    await new OrmReportStore(orm).save({
      keyId: first.id, hostId: 'h', receivedAt, encoding: 'raw', size: 9, sha256: 'a'.repeat(64), content: Buffer.from('os=Linux\n'), summary: null,
    });
    const keys = await listKeys(orm);
    expect(keys).toMatchObject([
      { id: first.id, label: 'first', state: 'valid', lastUploadAt: receivedAt },
      { id: second.id, label: 'second', state: 'revoked', lastUploadAt: null },
    ]);
    expect(JSON.stringify(keys)).not.toContain(first.key);
  });
});

describe('reports', () => {
  it('keeps every field and the exact bytes', async () => {
    const { id: keyId } = await createKey(orm);
    const content = Buffer.from([0, 1, 2, 255, 10]);
    const receivedAt = new Date();
    const { id } = await new OrmReportStore(orm).save({
      keyId, hostId: 'host-1', hostId2: 'host-2', receivedAt, encoding: 'base64', size: 5, sha256: 'b'.repeat(64), content, summary: null,
    });
    const stored = await orm.em.fork().findOneOrFail(ReportRecord, { id });
    expect(stored).toMatchObject({ hostId: 'host-1', hostId2: 'host-2', receivedAt, encoding: 'base64', size: 5, sha256: 'b'.repeat(64) });
    expect(Buffer.from(stored.content)).toEqual(content);
  });

  it('refuses a report for a key that does not exist', async () => {
    const save = new OrmReportStore(orm).save({
      keyId: 'no-such-key', hostId: 'h', receivedAt: new Date(), encoding: 'raw', size: 1, sha256: 'c'.repeat(64), content: Buffer.from('a=1'), summary: null,
    });
    await expect(save).rejects.toThrow(/FOREIGN KEY/);
  });
});

describe('TLS', () => {
  it('creates a self-signed certificate once and reuses it', async () => {
    const first = await loadTlsIdentity(dataDir);
    const second = await loadTlsIdentity(dataDir);
    expect(second).toEqual(first);
    expect(first.selfSigned).toBe(true);
    const cert = new X509Certificate(first.cert);
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.fingerprint256).toBe(first.fingerprint256);
    expect(cert.checkPrivateKey((await import('node:crypto')).createPrivateKey(first.key))).toBe(true);
  });
});

describe('configuration', () => {
  it('has sensible defaults', () => {
    expect(parseServerConfig({})).toMatchObject({ dataDir: 'data', port: 8443, plainHttp: false, toolSegment: 'audit', maxBodyBytes: 16 * 1024 * 1024 });
  });

  it('has generous resource and rate limits by default, and trusts no proxy', () => {
    const config = parseServerConfig({});
    expect(config).toEqual(expect.objectContaining({
      maxFields: 32,
      maxUploadsInFlight: 64,
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 120_000,
      rateLimitAddress: 1200,
      rateLimitKey: 6000,
      rateLimitFailures: 30,
    }));
    expect([config.redisUrl, config.trustProxy]).toEqual([undefined, undefined]);
  });

  it('takes proxies only as a hop count, addresses or named ranges', () => {
    expect(parseServerConfig({ trustProxy: '1' }).trustProxy).toBe('1');
    expect(parseServerConfig({ trustProxy: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toBe('10.0.0.1, 10.1.0.0/16');
    expect(parseServerConfig({ trustProxy: 'loopback' }).trustProxy).toBe('loopback');
    expect(() => parseServerConfig({ trustProxy: 'true' })).toThrow(/trustProxy: must be a hop count/);
    expect(() => parseServerConfig({ redisUrl: 'localhost:6379' })).toThrow(/redisUrl: must be a redis:\/\//);
    expect(() => parseServerConfig({ headersTimeoutMs: '60000', requestTimeoutMs: '30000' })).toThrow(/headers timeout/);
  });

  it('serves operations on loopback by default, on a port of their own, or not at all', () => {
    expect(parseServerConfig({})).toMatchObject({ opsHost: '127.0.0.1', opsPort: 9464, shutdownTimeoutSeconds: 30 });
    expect(parseServerConfig({ opsPort: 'off' }).opsPort).toBe('off');
    expect(parseServerConfig({ opsPort: '9100' }).opsPort).toBe(9100);
    expect(() => parseServerConfig({ port: '9000', opsPort: '9000' })).toThrow(/opsPort: the operations port must differ/);
    expect(() => parseServerConfig({ opsPort: 'none' })).toThrow(/opsPort: must be a port number or "off"/);
  });

  it('layers flags and environment over the config file over defaults', () => {
    const file = { path: 'audit.json', settings: { port: 9443, toolSegment: 'lynis', logLevel: 'warn' } };
    expect(parseServerConfig({ port: '10443', logLevel: undefined }, file)).toMatchObject({ port: 10443, toolSegment: 'lynis', logLevel: 'warn', dataDir: 'data' });
  });

  it('reads a JSON config file and refuses unknown settings and other shapes', async () => {
    const file = join(dataDir, 'config.json');
    await writeFile(file, JSON.stringify({ port: 9443, opsPort: 'off' }));
    expect(await readConfigFile(file)).toEqual({ path: file, settings: { port: 9443, opsPort: 'off' } });
    await writeFile(file, JSON.stringify({ prot: 9443 }));
    await expect(readConfigFile(file)).rejects.toThrow(/unknown setting "prot"; known: dataDir, host, port/);
    await writeFile(file, '[1]');
    await expect(readConfigFile(file)).rejects.toThrow(/must hold one JSON object/);
    await writeFile(file, '{ port: 1 }');
    await expect(readConfigFile(file)).rejects.toThrow(/Cannot read config file .*config\.json: .*JSON/);
    await expect(readConfigFile(join(dataDir, 'missing.json'))).rejects.toThrow(/missing\.json: file not found/);
  });

  it('explains what is wrong', () => {
    expect(() => parseServerConfig({ port: '70000', toolSegment: 'a/b' })).toThrow(/port: .*\n.*toolSegment: must be one URL path segment/);
    expect(() => parseServerConfig({ tlsCert: 'cert.pem' })).toThrow(/both a TLS certificate and its key/);
  });
});

describe('readiness', () => {
  it('is ready with the database reachable and every migration applied', async () => {
    expect(await readinessProblem({ orm, registry: new Registry(), isShuttingDown: () => false })).toBeUndefined();
  });

  it('names what is missing: a migration not applied, a closed database, a shutdown', async () => {
    // As if the newest code met a database that lacks a migration.
    await orm.em.getConnection().execute("delete from mikro_orm_migrations where name like '0001%'");
    expect(await readinessProblem({ orm, registry: new Registry(), isShuttingDown: () => false })).toBe('1 migration(s) not applied');
    expect(await readinessProblem({ orm, registry: new Registry(), isShuttingDown: () => true })).toBe('shutting down');
    await orm.close();
    expect(await readinessProblem({ orm, registry: new Registry(), isShuttingDown: () => false })).toBe('database unreachable');
  });
});
