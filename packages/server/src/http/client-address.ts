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

/** What the server says, once, when requests carry `X-Forwarded-For` that no `--trust-proxy` lets it believe. */
export const IGNORED_FORWARD_WARNING =
  'requests carry X-Forwarded-For, but --trust-proxy is not set: every client behind that proxy shares its address, for rate limits and the failed-key lockout alike';

/**
 * How to find a request's client address under `--trust-proxy`: Express' `req.ip`, without Express. Without it,
 * the first request that carries `X-Forwarded-For` is told to `onIgnoredForward` (a proxy nobody declared makes
 * 30 bad keys from any client lock out every client).
 */
export function clientAddressResolver(
  trustProxy: string | undefined,
  onIgnoredForward?: (message: string) => void,
): (req: IncomingMessage) => string | undefined {
  if (!trustProxy) {
    let told = onIgnoredForward === undefined;
    return (req) => {
      if (!told && req.headers['x-forwarded-for'] !== undefined) {
        told = true;
        onIgnoredForward!(IGNORED_FORWARD_WARNING);
      }
      return req.socket.remoteAddress;
    };
  }
  const trust = compileProxyTrust(trustProxy);
  return (req) => proxyAddr(req, trust);
}
