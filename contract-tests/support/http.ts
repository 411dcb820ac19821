import { Agent, request } from 'node:http';

/** An answer read off a plain HTTP connection. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Keep-alive connections to one server, so that thousands of requests do not each open a socket. */
export function keepAliveAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

/** POSTs exactly `body` with exactly `headers` (no content type is added) and reads the whole answer. */
export function postBytes(agent: Agent, url: string, headers: Record<string, string>, body: Buffer): Promise<HttpAnswer> {
  const { origin, pathname, search } = new URL(url);
  return sendBytes(agent, origin, 'POST', `${pathname}${search}`, headers, body);
}

/**
 * Sends one request for exactly `target` (sent as is: no dot segments resolved, no escapes changed) with exactly
 * `headers` (a body only when given) to `origin`, and reads the whole answer.
 */
export function sendBytes(agent: Agent, origin: string, method: string, target: string, headers: Record<string, string>, body?: Buffer): Promise<HttpAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const sized = body === undefined ? headers : { 'content-length': String(body.length), ...headers };
    const outgoing = request({ host: hostname.replace(/^\[|\]$/g, ''), port, path: target, method, agent, headers: sized }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
