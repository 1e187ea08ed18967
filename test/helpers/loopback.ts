import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A test server listening on 127.0.0.1, on a port the system chose. */
export interface Loopback {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and destroys open sockets, hanging requests included. */
  close(): Promise<void>;
}

/**
 * Starts `server` on 127.0.0.1 (never on every interface), on `port` or one the system chose,
 * keeping its sockets to close them.
 */
export async function listenOnLoopback(server: Server, port = 0): Promise<Loopback> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: chosen } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${chosen}`,
    port: chosen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
