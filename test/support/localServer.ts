// Starting and stopping the HTTP servers tests stand up on 127.0.0.1: one way to listen on a free
// port and get the base URL, one way to close that does not wait for keep-alive connections.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free port of 127.0.0.1 and resolves to `http://127.0.0.1:<port>`. */
export async function listenLocal(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server, held and keep-alive connections too (close() alone would wait for them). */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
