import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashLicenseKey } from '@org/audit-server-core';
import { parseServerConfig, readConfigFile } from './config.js';
import { openDatabase, type Database } from './database/open.js';
import { createKey } from './secrets/license-keys.js';
import { loadTlsIdentity } from './http/tls.js';

let dataDir: string;
let orm: Database;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'audit-server-test-'));
  orm = await openDatabase(dataDir);
});
afterEach(async () => {
  await orm.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('SQLite database', () => {
  it('is durable on commit: WAL with synchronous FULL', async () => {
    const connection = orm.em.getConnection();
    expect(await connection.execute('pragma journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(await connection.execute('pragma synchronous')).toEqual([{ synchronous: 2 }]);
  });
});

describe('SQLite file', () => {
  it('holds no license key, only its hash', async () => {
    const { key } = await createKey(orm, { label: 'web servers' });
    await orm.close();
    orm = await openDatabase(dataDir);
    const file = await readFile(join(dataDir, 'audit.sqlite'));
    expect(file.includes(key)).toBe(false);
    expect(file.includes(hashLicenseKey(key))).toBe(true);
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
    expect(config).toEqual(
      expect.objectContaining({
        maxFields: 32,
        maxBodyBytesInFlight: 256 * 1024 * 1024,
        maxBodiesPerAddress: 32,
        minBodyBytesPerSecond: 500,
        bodyGraceMs: 20_000,
        headersTimeoutMs: 20_000,
        requestTimeoutMs: 120_000,
        rateLimitAddress: 1200,
        rateLimitKey: 6000,
        rateLimitFailures: 30,
      }),
    );
    expect([config.redisUrl, config.trustProxy]).toEqual([undefined, undefined]);
  });

  it('bounds TLS handshakes to 5 s and a client address to 128 open connections by default', () => {
    expect(parseServerConfig({})).toMatchObject({ tlsHandshakeTimeoutMs: 5000, maxConnectionsPerAddress: 128 });
    expect(parseServerConfig({ tlsHandshakeTimeoutMs: '2000', maxConnectionsPerAddress: '1000' })).toMatchObject({
      tlsHandshakeTimeoutMs: 2000,
      maxConnectionsPerAddress: 1000,
    });
    expect(() => parseServerConfig({ tlsHandshakeTimeoutMs: 'soon', maxConnectionsPerAddress: '0' })).toThrow(
      /tlsHandshakeTimeoutMs: .*\n.*maxConnectionsPerAddress: .*>=1/,
    );
  });

  it('takes proxies only as a hop count, addresses or named ranges', () => {
    expect(parseServerConfig({ trustProxy: '1' }).trustProxy).toBe('1');
    expect(parseServerConfig({ trustProxy: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toBe('10.0.0.1, 10.1.0.0/16');
    expect(parseServerConfig({ trustProxy: 'loopback' }).trustProxy).toBe('loopback');
    expect(() => parseServerConfig({ trustProxy: 'true' })).toThrow(/trustProxy: must be a hop count/);
    expect(() => parseServerConfig({ redisUrl: 'localhost:6379' })).toThrow(/redisUrl: must be a redis:\/\//);
    expect(() => parseServerConfig({ headersTimeoutMs: '60000', requestTimeoutMs: '30000' })).toThrow(/headers timeout/);
  });

  it('lets waivers run for at most 365 days unless told otherwise, from 1 to 3650', () => {
    expect(parseServerConfig({}).waiverMaxDays).toBe(365);
    expect(parseServerConfig({ waiverMaxDays: '30' }).waiverMaxDays).toBe(30);
    expect(parseServerConfig({}, { path: 'audit.json', settings: { waiverMaxDays: 90 } }).waiverMaxDays).toBe(90);
    expect(() => parseServerConfig({ waiverMaxDays: '0' })).toThrow(/waiverMaxDays: /);
    expect(() => parseServerConfig({ waiverMaxDays: 'a year' })).toThrow(/waiverMaxDays: /);
  });

  it("ends people's sessions after 30 idle minutes and 12 hours unless told otherwise", () => {
    expect(parseServerConfig({})).toMatchObject({ sessionIdleMinutes: 30, sessionMaxHours: 12 });
    expect(parseServerConfig({ sessionIdleMinutes: '15', sessionMaxHours: '8' })).toMatchObject({ sessionIdleMinutes: 15, sessionMaxHours: 8 });
    expect(() => parseServerConfig({ sessionIdleMinutes: '0' })).toThrow(/sessionIdleMinutes: /);
    expect(() => parseServerConfig({ sessionMaxHours: 'a day' })).toThrow(/sessionMaxHours: /);
  });

  it('refuses webhooks to private addresses unless allowed by flag, environment text or config file', () => {
    expect(parseServerConfig({}).webhookAllowPrivate).toBe(false);
    expect(parseServerConfig({ webhookAllowPrivate: true }).webhookAllowPrivate).toBe(true);
    expect(parseServerConfig({ webhookAllowPrivate: 'true' }).webhookAllowPrivate).toBe(true);
    expect(parseServerConfig({ webhookAllowPrivate: 'false' }).webhookAllowPrivate).toBe(false);
    expect(parseServerConfig({ webhookAllowPrivate: '0' }).webhookAllowPrivate).toBe(false);
    expect(parseServerConfig({}, { path: 'audit.json', settings: { webhookAllowPrivate: true } }).webhookAllowPrivate).toBe(true);
    expect(() => parseServerConfig({ webhookAllowPrivate: 'perhaps' })).toThrow(/webhookAllowPrivate: must be true or false/);
  });

  it('serves operations on loopback by default, on a port of their own, or not at all', () => {
    expect(parseServerConfig({})).toMatchObject({ opsHost: '127.0.0.1', opsPort: 9464, shutdownTimeoutSeconds: 30 });
    expect(parseServerConfig({ opsPort: 'off' }).opsPort).toBe('off');
    expect(parseServerConfig({ opsPort: '9100' }).opsPort).toBe(9100);
    expect(() => parseServerConfig({ port: '9000', opsPort: '9000' })).toThrow(/opsPort: the operations port must differ/);
    expect(() => parseServerConfig({ opsPort: 'none' })).toThrow(/opsPort: must be a port number or "off"/);
  });

  it("serves the admin API on the collectors' port by default, on a listener of its own, or not at all", () => {
    expect(parseServerConfig({}).adminListen).toBeUndefined();
    expect(parseServerConfig({ adminListen: 'off' }).adminListen).toBe('off');
    expect(parseServerConfig({ adminListen: '127.0.0.1:8444' }).adminListen).toEqual({ host: '127.0.0.1', port: 8444 });
    expect(parseServerConfig({ adminListen: '[::1]:8444' }).adminListen).toEqual({ host: '::1', port: 8444 });
    expect(parseServerConfig({ adminListen: 'mgmt.example.org:0' }).adminListen).toEqual({ host: 'mgmt.example.org', port: 0 });
    for (const bad of ['8444', '127.0.0.1', '::1:8444', '[::1]', '127.0.0.1:70000', '127.0.0.1:port', 'on', '']) {
      expect(() => parseServerConfig({ adminListen: bad }), bad).toThrow(
        /^Invalid configuration:\n {2}adminListen: must be host:port \(\[::1\]:8444 for IPv6\) or "off"$/,
      );
    }
    expect(() => parseServerConfig({ port: '8443', adminListen: '127.0.0.1:8443' })).toThrow(
      /adminListen: the admin port must differ from the collectors' port and the operations port/,
    );
    expect(() => parseServerConfig({ adminListen: '127.0.0.1:9464' })).toThrow(/adminListen: the admin port must differ/);
    expect(parseServerConfig({ port: '0', opsPort: '0', adminListen: '127.0.0.1:0' }).adminListen).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseServerConfig({ opsPort: 'off', adminListen: '127.0.0.1:9464' }).adminListen).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  it('selects PostgreSQL only by a postgres URL, and never repeats the URL in an error', () => {
    expect(parseServerConfig({}).databaseUrl).toBeUndefined();
    expect(parseServerConfig({ databaseUrl: 'postgresql://audit@db/audit' }).databaseUrl).toBe('postgresql://audit@db/audit');
    expect(() => parseServerConfig({ databaseUrl: 'mysql://audit:s3cret@db/audit' })).toThrow(
      /^Invalid configuration:\n {2}databaseUrl: must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    );
  });

  it('keeps every report by default, and takes retention rules and a prune interval', () => {
    const defaults = parseServerConfig({});
    expect([defaults.retentionKeepLast, defaults.retentionMaxAgeDays, defaults.pruneIntervalMinutes]).toEqual([undefined, undefined, 60]);
    expect(parseServerConfig({ retentionKeepLast: '10', retentionMaxAgeDays: '0.5', pruneIntervalMinutes: '0' })).toMatchObject({
      retentionKeepLast: 10,
      retentionMaxAgeDays: 0.5,
      pruneIntervalMinutes: 0,
    });
    expect(() => parseServerConfig({ retentionKeepLast: '0', retentionMaxAgeDays: '-1', pruneIntervalMinutes: '-5' })).toThrow(
      /retentionKeepLast: .*\n.*retentionMaxAgeDays: .*\n.*pruneIntervalMinutes: /,
    );
  });

  it('layers flags and environment over the config file over defaults', () => {
    const file = { path: 'audit.json', settings: { port: 9443, toolSegment: 'lynis', logLevel: 'warn' } };
    expect(parseServerConfig({ port: '10443', logLevel: undefined }, file)).toMatchObject({
      port: 10443,
      toolSegment: 'lynis',
      logLevel: 'warn',
      dataDir: 'data',
    });
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
    expect(() => parseServerConfig({ toolSegment: 'admin' })).toThrow(/toolSegment: cannot be "admin": \/api\/admin\/ is the admin API/);
  });
});
