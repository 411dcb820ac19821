import { X509Certificate } from 'node:crypto';
import { DEFAULT_CIPHERS, type TlsOptions } from 'node:tls';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../config.js';

/** A certificate and its private key, PEM-encoded. */
export interface TlsIdentity {
  cert: string;
  key: string;
  /** SHA-256 fingerprint, for clients to pin or compare. */
  fingerprint256: string;
  /** Whether this is the self-signed certificate kept in the data directory. */
  selfSigned: boolean;
}

/**
 * TLS 1.2 suites: Mozilla's "intermediate" list, AEAD with forward secrecy only. TLS 1.3 suites (all AEAD with
 * forward secrecy) stay Node's defaults; they must be named too, as a cipher list without them turns TLS 1.3 off.
 */
const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'DHE-RSA-AES128-GCM-SHA256',
  'DHE-RSA-AES256-GCM-SHA384',
  'DHE-RSA-CHACHA20-POLY1305',
];
const TLS13_SUITES = DEFAULT_CIPHERS.split(':').filter((suite) => suite.startsWith('TLS_'));

/** Server options for `identity`: TLS 1.2 or later, the suites above in the server's order, and a bound on the handshake's time. */
export function tlsServerOptions(identity: TlsIdentity, handshakeTimeoutMs: number): TlsOptions {
  return {
    cert: identity.cert,
    key: identity.key,
    minVersion: 'TLSv1.2',
    ciphers: [...TLS13_SUITES, ...TLS12_CIPHERS].join(':'),
    honorCipherOrder: true,
    handshakeTimeout: handshakeTimeoutMs,
  };
}

/** The identity the settings ask for: none for plain HTTP, else as {@link loadTlsIdentity} finds it. */
export async function tlsIdentityFor(config: Pick<ServerConfig, 'plainHttp' | 'dataDir' | 'tlsCert' | 'tlsKey'>): Promise<TlsIdentity | undefined> {
  if (config.plainHttp) return undefined;
  return loadTlsIdentity(config.dataDir, config.tlsCert && config.tlsKey ? { cert: config.tlsCert, key: config.tlsKey } : undefined);
}

/** Reads the configured certificate, or the data directory's self-signed one, creating it on first start. */
export async function loadTlsIdentity(dataDir: string, files?: { cert: string; key: string }): Promise<TlsIdentity> {
  if (files) {
    const [cert, key] = await Promise.all([readFile(files.cert, 'utf8'), readFile(files.key, 'utf8')]);
    return { cert, key, fingerprint256: new X509Certificate(cert).fingerprint256, selfSigned: false };
  }
  const certFile = join(dataDir, 'tls-cert.pem');
  const keyFile = join(dataDir, 'tls-key.pem');
  try {
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
    return { cert, key, fingerprint256: new X509Certificate(cert).fingerprint256, selfSigned: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { cert, key } = await createSelfSigned();
  await writeFile(keyFile, key, { mode: 0o600, flag: 'wx' });
  await writeFile(certFile, cert, { mode: 0o644, flag: 'wx' });
  return { cert, key, fingerprint256: new X509Certificate(cert).fingerprint256, selfSigned: true };
}

async function createSelfSigned(): Promise<{ cert: string; key: string }> {
  const name = hostname();
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate);
  notAfterDate.setFullYear(notAfterDate.getFullYear() + 3);
  // Loaded only when a certificate is made: it takes a tenth of a second, which a restart need not pay.
  const { default: selfsigned } = await import('selfsigned');
  const pems = await selfsigned.generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: name },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
