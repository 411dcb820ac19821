import type { Server, Socket } from 'node:net';

/**
 * Destroys a new TCP connection at once when its client address already holds `max` open connections to `server`.
 * Counted on the raw `connection` event, before any TLS handshake, so that held-open sockets cost the server no
 * more than a file descriptor each, up to the cap.
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already closed by the client
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
