import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the stub received it, body read whole. */
export interface StubRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the stub answers; `hang` answers nothing, to try timeouts. */
export type StubReply = { status: number; body: string; headers?: Record<string, string> } | 'hang';

/** A plain-HTTP server on 127.0.0.1 that records every request and answers what `answer` says. */
export interface StubServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

/** Starts a {@link StubServer}: for testing clients against answers no real server gives on demand. */
export async function startStubServer(answer: (request: StubRequest) => StubReply): Promise<StubServer> {
  const requests: StubRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = { method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks) };
      requests.push(received);
      const reply = answer(received);
      if (reply !== 'hang') response.writeHead(reply.status, reply.headers).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (it was free a moment ago): a client sent there gets no connection. */
export { freePort as unusedPort } from './ports.js';
