import { connect as connectPlain, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';

/** An HTTP response as read off the wire. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** How to connect: TLS (certificate not verified, as Lynis' `--insecure`) or plain TCP, from which local address. */
export interface RawConnectOptions {
  tls?: boolean;
  /** The client's address, e.g. `127.0.0.2` to act as another client on loopback. */
  localAddress?: string;
}

/**
 * Sends `request` byte for byte over TLS, or over plain TCP with `tls: false`, and reads one response. Used to
 * replay captured traffic exactly, with no client library rewriting it.
 */
export async function exchangeRaw(port: number, request: Buffer, options: RawConnectOptions = {}): Promise<RawResponse> {
  const sent = await sendRaw(port, request, options);
  const response = await sent.response;
  sent.socket.end();
  return response;
}

/** A request whose bytes were sent so far, with its socket kept open to send more, or nothing. */
export interface OpenRequest {
  socket: Socket;
  /** The server's answer, whenever it comes (rejects if the connection ends without one). */
  response: Promise<RawResponse>;
  /** Resolves once the connection is closed, by either side. */
  closed: Promise<void>;
}

/** Connects, sends `bytes` (a request or its start) and leaves the connection open: for slow and partial bodies. */
export function sendRaw(port: number, bytes: Buffer, { tls = true, localAddress }: RawConnectOptions = {}): Promise<OpenRequest> {
  return new Promise((resolve, reject) => {
    const socket: Socket = tls
      ? connectTls({ host: '127.0.0.1', port, localAddress, rejectUnauthorized: false } as ConnectionOptions, () => connected()) // tls.connect takes net's options too
      : connectPlain({ host: '127.0.0.1', port, localAddress }, () => connected());
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    const response = readResponse(socket);
    response.catch(() => {}); // read by the caller if it cares
    socket.once('error', reject);
    const connected = () => {
      socket.off('error', reject);
      socket.on('error', () => {}); // a reset after the answer is the server closing a refused upload
      socket.write(bytes);
      resolve({ socket, response, closed });
    };
  });
}

/** Reads one response (with `Content-Length`) off a socket. */
function readResponse(socket: Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine, ...headerLines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      const length = Number(headers['content-length']);
      if (received.length < end + 4 + length) return;
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: received.subarray(end + 4, end + 4 + length) });
    });
    socket.once('close', () => reject(new Error('the connection closed without an answer')));
  });
}

/** The head of a form POST, declaring a body of `contentLength` bytes. */
export function formPostHead(path: string, contentLength: number, contentType = 'application/x-www-form-urlencoded'): Buffer {
  return Buffer.from(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: ${contentLength}\r\n\r\n`, 'latin1');
}
