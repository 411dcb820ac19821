import { createHash, X509Certificate } from 'node:crypto';
import { shellQuote } from './shell-quote.js';

/** Where hosts reach the intake listener, as the one-line command and the script name it. */
export interface IntakeAddress {
  /** `https`, or `http` where the server runs plain HTTP (behind a proxy, in tests). */
  scheme: 'http' | 'https';
  /** The host name or address hosts use (`--public-host`, else the admin request's host name). */
  host: string;
  port: number;
  /** The intake's certificate (PEM) when it serves HTTPS. */
  certificate?: string;
}

/**
 * curl's `--pinnedpubkey` of a certificate: `sha256//` and the base64 SHA-256 of its SubjectPublicKeyInfo. With
 * `-k` curl skips the chain and name checks but still refuses any other public key, so the command works on the
 * default self-signed certificate without copying a CA file first, and trusts nothing else.
 */
export function publicKeyPin(certificatePem: string): string {
  const spki = new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'der' });
  return `sha256//${createHash('sha256').update(spki).digest('base64')}`;
}

/** `host:port` for a URL, an IPv6 address in brackets. */
export const hostPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The intake's base URL, e.g. `https://collector.example.org:8443`. */
export const intakeUrl = (address: IntakeAddress): string => `${address.scheme}://${hostPort(address.host, address.port)}`;

/** The one-line command that fetches and runs the enroll script: it carries the secret, so it is shown once. */
export function enrollCommand(address: IntakeAddress, secret: string): string {
  const tls = address.scheme === 'https' && address.certificate ? `-k --pinnedpubkey ${shellQuote(publicKeyPin(address.certificate))} ` : '';
  return `curl -fsS ${tls}-H ${shellQuote(`Authorization: Bearer ${secret}`)} ${shellQuote(`${intakeUrl(address)}/enroll.sh`)} | sudo sh`;
}
