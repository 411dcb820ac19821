import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What came back from a webhook's URL. */
export interface WebhookAnswer {
  status: number;
}

/** Most bytes of an answer read (and then dropped): receivers have nothing to tell but their status. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * IANA's global unicast allocation for IPv6. ipaddr.js names the special-purpose blocks inside it (documentation,
 * Teredo, 6to4, benchmarking, ...) but calls every address it has no name for `unicast`, the never-allocated and
 * retired space outside 2000::/3 included (IPv4-compatible `::/96`, site-local `fec0::/10` before 2.5): so an IPv6
 * receiver must be both in this block and `unicast`.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why an address is not public (`loopback`, `outside global unicast 2000::/3`), or undefined when it is: public
 * unicast, judged by ipaddr.js's ranges, which follow the IANA IPv4 and IPv6 special-purpose registries. IPv4
 * mapped into IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it is.
 */
export function notPublicBecause(address: string): string | undefined {
  // A zone (`fe80::1%eth0`) is only ever given to link-scoped addresses.
  if (address.includes('%')) return 'scoped to a link';
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(canonical(address));
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) return notPublicBecause(parsed.toIPv4Address().toString());
  const range = parsed.range();
  if (range !== 'unicast') return range;
  if (parsed instanceof ipaddr.IPv6 && !parsed.match(GLOBAL_UNICAST_V6)) return 'outside global unicast 2000::/3';
  return undefined;
}

/**
 * An IPv6 address as the URL standard writes it (hex only): ipaddr.js reads a dotted tail (`::8.8.8.8`, IPv4-compatible)
 * as IPv4-mapped, which it is not.
 */
const canonical = (address: string) => (address.includes(':') ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);

/** Whether an address may be reached: public unicast ({@link notPublicBecause}), or anything when private addresses are allowed. */
export function isAllowedAddress(address: string, allowPrivate: boolean): boolean {
  return allowPrivate || notPublicBecause(address) === undefined;
}

/**
 * Why a webhook URL names a host it may not reach, judged from the URL alone: an address written into it (in any
 * spelling the URL standard reads, `2130706433` and `0x7f000001` being 127.0.0.1), or `localhost`. Other names are
 * judged as they resolve, at every delivery ({@link postWebhook}).
 */
export function refusedReceiver(url: string, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a loopback name`;
  const why = ipaddr.isValid(host) ? notPublicBecause(host) : undefined;
  return why && `${host} is not a public address (${why})`;
}

/**
 * A socket lookup that resolves through `resolve` (the system's resolver) and fails when any answer may not be
 * reached: the socket could be given any of them.
 */
export function checkedLookup(allowPrivate: boolean, resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of allowPrivate ? [] : addresses) {
        const why = notPublicBecause(address);
        if (why) return callback(new Error(`${hostname} resolves to ${address}, not a public address (${why})`), '', 0);
      }
      if ((lookupOptions as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * POSTs a body to a webhook URL: no redirect followed, at most `timeoutMs` in all, and the address checked as it is
 * connected to (through the socket's own DNS lookup), so a name that resolves to a private address, at once or
 * after a first check, is refused all the same.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<WebhookAnswer> {
  const target = new URL(url);
  const refusal = refusedReceiver(url, options.allowPrivate);
  if (refusal) return Promise.reject(new Error(refusal));
  const requestOptions: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    lookup: checkedLookup(options.allowPrivate),
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
