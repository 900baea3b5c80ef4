import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpFetch, type SdkFetch } from '../../../runtime/providers/httpFetch.js';
import { REPO_ROOT } from '../../support/cli.js';
import { closeServer, listenLocal, readBody } from '../../support/localServer.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  socket: number;
}

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

/** A local server answering with `handle`; records each request and which connection carried it. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const sockets = new WeakMap<object, number>();
  let nextSocket = 0;
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, ++nextSocket);
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, socket: sockets.get(req.socket)! };
      seen.push(entry);
      handle(req, res, entry);
    });
  });
  const url = await listenLocal(server);
  servers.push(() => closeServer(server));
  return { url, seen };
}

/** A node child process (the test's own node), its exit code and output. */
function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

const fallbackCalls: string[] = [];
const recordingFallback: SdkFetch = async (input) => {
  fallbackCalls.push(String(input));
  return new Response('from fallback', { status: 200 });
};

describe('the node:http fetch given to the provider SDKs', () => {
  it('sends method, headers and a text body with its length, and reuses one connection', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_1' });
      res.end('{"ok":true}');
    });
    const fetch = createHttpFetch({ env: {} });
    const headers = new Headers({ 'x-api-key': 'k', 'content-type': 'application/json' });
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${url}/v1/messages?beta=true`, { method: 'post', headers, body: '{"n":"é"}' });
      expect(response.ok).toBe(true);
      expect(response.status).toBe(200);
      expect(response.headers.get('Request-Id')).toBe('req_1');
      expect(await response.json()).toEqual({ ok: true });
    }
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual(Array(3).fill(['POST', '/v1/messages?beta=true', '{"n":"é"}']));
    expect(seen[0]!.headers['x-api-key']).toBe('k');
    expect(seen[0]!.headers['content-length']).toBe(String(Buffer.byteLength('{"n":"é"}')));
    expect(seen[0]!.headers['transfer-encoding']).toBeUndefined();
    expect(new Set(seen.map((s) => s.socket)).size).toBe(1);
  });

  it('streams the body as it arrives, chunk by chunk', async () => {
    let release: () => void = () => {};
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: one\n\n');
      release = () => res.end('event: two\n\n');
    });
    const response = await createHttpFetch({ env: {} })(url, { method: 'POST', body: '{}' });
    const iterator = (response.body as unknown as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    expect(String((await iterator.next()).value)).toBe('event: one\n\n');
    release();
    expect(String((await iterator.next()).value)).toBe('event: two\n\n');
    expect((await iterator.next()).done).toBe(true);
  });

  it('undoes a gzip content-encoding as fetch does', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync('{"error":{"message":"overloaded"}}'));
    });
    const response = await createHttpFetch({ env: {} })(url, { method: 'POST', body: '{}' });
    expect(response.ok).toBe(false);
    expect(await response.text()).toBe('{"error":{"message":"overloaded"}}');
    await expect(response.text()).rejects.toThrow(/already been read/);
  });

  it('rejects with an AbortError when aborted before the headers, and fails the body when aborted after', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/late') return; // never answers
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
    });
    const fetch = createHttpFetch({ env: {} });
    const before = new AbortController();
    const pending = fetch(`${url}/late`, { method: 'POST', body: '{}', signal: before.signal });
    setTimeout(() => before.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const after = new AbortController();
    const response = await fetch(`${url}/stream`, { method: 'POST', body: '{}', signal: after.signal });
    const chunks: string[] = [];
    const reading = (async () => {
      for await (const chunk of response.body as unknown as AsyncIterable<Buffer>) {
        chunks.push(String(chunk));
        after.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(chunks).toEqual(['data: first\n\n']);
  });

  it('fails with ETIMEDOUT when the server goes silent mid-body', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
    });
    const response = await createHttpFetch({ env: {}, idleTimeoutMs: 100 })(url, { method: 'POST', body: '{}' });
    const reading = (async () => {
      for await (const _chunk of response.body as unknown as AsyncIterable<Buffer>);
    })();
    await expect(reading).rejects.toMatchObject({ code: 'ETIMEDOUT' });
  });

  it('names the socket error when nothing listens', async () => {
    const server = createServer();
    const url = await listenLocal(server);
    await closeServer(server);
    await expect(createHttpFetch({ env: {} })(`${url}/v1/messages`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('leaves proxied environments, redirects, streamed bodies and Request objects to fetch', async () => {
    fallbackCalls.length = 0;
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(307, { location: '/here' });
        return res.end();
      }
      res.end('direct');
    });
    const proxied = createHttpFetch({ env: { HTTPS_PROXY: 'http://proxy.invalid:3128' }, fallback: recordingFallback });
    expect(await (await proxied(`${url}/a`, { method: 'POST', body: '{}' })).text()).toBe('from fallback');

    const direct = createHttpFetch({ env: {}, fallback: recordingFallback });
    expect(await (await direct(`${url}/moved`, { method: 'POST', body: '{}' })).text()).toBe('from fallback');
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('x')), c.close()) });
    expect(await (await direct(`${url}/b`, { method: 'POST', body: stream })).text()).toBe('from fallback');
    expect(await (await direct(new Request(`${url}/r`, { method: 'POST', body: '{}' }))).text()).toBe('from fallback');
    expect(await (await direct(`${url}/c`, { method: 'POST', body: '{}' })).text()).toBe('direct');

    expect(fallbackCalls).toEqual([`${url}/a`, `${url}/moved`, `${url}/b`, `[object Request]`]);
    expect(seen.map((s) => s.url)).toEqual(['/moved', '/c']);
  });
});

describe('the node:http fetch over HTTPS', () => {
  it('talks TLS with the CAs Node trusts (NODE_EXTRA_CA_CERTS here), keeping one connection', async () => {
    const tls = join(REPO_ROOT, 'test', 'support', 'tls');
    let connections = 0;
    const server = createHttpsServer({ key: readFileSync(join(tls, 'localhost-key.pem')), cert: readFileSync(join(tls, 'localhost-cert.pem')) }, (req, res) => {
      void readBody(req).then((body) => res.end(`secure ${req.method} ${body}`));
    });
    server.on('secureConnection', () => connections++);
    const url = `${(await listenLocal(server as unknown as Server)).replace('http:', 'https:')}/v1/messages`;
    servers.push(() => closeServer(server as unknown as Server));
    // The built transport in a child process: Node reads NODE_EXTRA_CA_CERTS once, at start-up.
    const script = `import { createHttpFetch } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/runtime/providers/httpFetch.js')).href)};
      const fetch = createHttpFetch({ env: {} });
      for (const n of [1, 2]) console.log(await (await fetch(process.argv[1], { method: 'POST', body: 'n=' + n })).text());`;
    const child = await runNode(['--input-type=module', '-e', script, url], { ...process.env, NODE_EXTRA_CA_CERTS: join(tls, 'localhost-cert.pem') });
    expect(child.stdout.trim().split('\n')).toEqual(['secure POST n=1', 'secure POST n=2']);
    expect(connections).toBe(1);
    // Without the CA, the certificate is refused, as fetch would refuse it.
    const untrusted = await runNode(['--input-type=module', '-e', script, url], { ...process.env, NODE_EXTRA_CA_CERTS: '' });
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.stderr).toMatch(/self-signed|SELF_SIGNED|unable to verify/i);
  });
});
