import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What came back from a webhook's URL. */
export interface WebhookAnswer {
  status: number;
}

/** Address ranges a webhook may reach without the operator's leave: public unicast only. */
const PUBLIC_RANGES = new Set(['unicast']);

/** Most bytes of an answer read (and then dropped): receivers have nothing to tell but their status. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Whether an address may be reached: public unicast, or anything when private addresses are allowed. IPv4 mapped
 * into IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it is.
 */
export function isAllowedAddress(address: string, allowPrivate: boolean): boolean {
  if (allowPrivate) return true;
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return PUBLIC_RANGES.has(parsed.range());
}

/**
 * Why a webhook URL names a host it may not reach, judged from the URL alone: an address written into it, or
 * `localhost`. Other names are judged as they resolve, at every delivery ({@link postWebhook}).
 */
export function refusedReceiver(url: string, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a loopback name`;
  if (ipaddr.isValid(host) && !isAllowedAddress(host, false)) return `${host} is a private, loopback or link-local address`;
  return undefined;
}

/**
 * POSTs a body to a webhook URL: no redirect followed, at most `timeoutMs` in all, and the address checked as it is
 * connected to (through the socket's own DNS lookup), so a name that resolves to a private address, at once or
 * after a first check, is refused all the same.
 */
export function postWebhook(url: string, headers: Record<string, string>, body: string, options: { allowPrivate: boolean; timeoutMs: number }): Promise<WebhookAnswer> {
  const target = new URL(url);
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !isAllowedAddress(entry.address, options.allowPrivate));
      if (refused) return callback(new Error(`${hostname} resolves to ${refused.address}, a private, loopback or link-local address`), '', 0);
      if ((lookupOptions as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const refusal = refusedReceiver(url, options.allowPrivate);
  if (refusal) return Promise.reject(new Error(refusal));
  const requestOptions: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    lookup,
    timeout: options.timeoutMs,
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(target, requestOptions, (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      response.on('close', () => resolve({ status: response.statusCode ?? 0 }));
      response.on('error', () => resolve({ status: response.statusCode ?? 0 }));
    });
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
