// Starting and stopping the HTTP servers tests stand up on 127.0.0.1: one way to listen on a free
// port and get the base URL, one way to close that does not wait for keep-alive connections, and
// one way to read a request's body.

import { createServer, type IncomingMessage, type Server } from 'node:http';
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

/** The whole body of a request, as UTF-8 text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A local server that records each POSTed body: the side effect a test counts (once per task or item). */
export async function startCounter(): Promise<{ url: string; marks: string[]; close: () => Promise<void> }> {
  const marks: string[] = [];
  const http = createServer((req, res) => {
    void readBody(req).then((body) => {
      marks.push(body);
      res.end('marked');
    });
  });
  const url = await listenLocal(http);
  return { url, marks, close: () => closeServer(http) };
}
