import { connect as connectPlain, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** An HTTP response as read off the wire. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Sends `request` byte for byte over TLS (certificate not verified, as Lynis' `--insecure`), or over plain TCP
 * with `tls: false`, and reads one response. Used to replay captured traffic exactly, with no client library rewriting it.
 */
export function exchangeRaw(port: number, request: Buffer, { tls = true } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket: Socket = tls
      ? connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => socket.write(request))
      : connectPlain({ host: '127.0.0.1', port }, () => socket.write(request));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine, ...headerLines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }));
      const length = Number(headers['content-length']);
      if (received.length < end + 4 + length) return;
      socket.end();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: received.subarray(end + 4, end + 4 + length) });
    });
    socket.on('error', reject);
  });
}
