import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/** Tells whether the hop at `index` (0 = the socket's peer) with address `address` is a proxy to believe. */
export type ProxyTrust = (address: string, index: number) => boolean;

/**
 * The `--trust-proxy` setting compiled once, as Express compiles its `trust proxy` setting: a hop count trusts
 * that many hops, otherwise addresses, subnets or the names `loopback`, `linklocal`, `uniquelocal`. Unset: no
 * proxy is believed, so `X-Forwarded-For` is ignored. Express is given the same function, so that the admin API
 * and the collector endpoints see one client address.
 */
export function compileProxyTrust(trustProxy: string | undefined): ProxyTrust {
  if (!trustProxy) return () => false;
  if (/^\d+$/.test(trustProxy)) {
    const hops = Number(trustProxy);
    return (_address, index) => index < hops;
  }
  return proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
}

/** How to find a request's client address under `--trust-proxy`: Express' `req.ip`, without Express. */
export function clientAddressResolver(trustProxy: string | undefined): (req: IncomingMessage) => string | undefined {
  // Without proxies the socket's peer is the client: no X-Forwarded-For header to parse.
  if (!trustProxy) return (req) => req.socket.remoteAddress;
  const trust = compileProxyTrust(trustProxy);
  return (req) => proxyAddr(req, trust);
}
