import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { builtinToolSpecs, type BuiltinOptions } from '../../../runtime/tools/builtins/index.js';
import type { ToolSpec } from '../../../runtime/tools/types.js';
import { textOf, toolContext } from './toolContext.js';
import { closeServer, listenLocal } from '../../support/localServer.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = req.url ?? '/';
      if (path === '/hello') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '11', 'x-ignored': 'yes' });
        res.end('hello world');
      } else if (path === '/missing') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"not here"}');
      } else if (path === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(5000));
      } else if (path === '/binary') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
      } else if (path === '/redirect') {
        res.writeHead(302, { location: '/hello' });
        res.end();
      } else if (path === '/hang') {
        // never answers
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, contentType: req.headers['content-type'] ?? null, body }));
      }
    });
  });
  base = await listenLocal(server);
});

afterAll(async () => {
  await closeServer(server);
});

function tool(name: string, options: BuiltinOptions = {}): ToolSpec {
  // The test server listens on 127.0.0.1: allowed here as a project allows it (allowed_hosts).
  return builtinToolSpecs({ ...options, http: { allowedHosts: ['127.0.0.1'], ...options.http } }).find((t) => t.ref === `builtins.http.${name}`)!;
}

describe('builtins.http', () => {
  it('returns status line, selected headers and body, with User-Agent squadron', async () => {
    const r = await tool('get').execute({ url: `${base}/hello`, headers: { 'X-Trace': 'abc' } }, toolContext());
    expect(r.isError).toBe(false);
    expect(textOf(r)).toBe('HTTP 200 OK\ncontent-type: text/plain; charset=utf-8\ncontent-length: 11\n\nhello world');
    const req = seen.at(-1)!;
    expect(req.headers['user-agent']).toBe('squadron');
    expect(req.headers['x-trace']).toBe('abc');
  });

  it('reports a 404 as a normal result with the status first', async () => {
    const r = await tool('get').execute({ url: `${base}/missing` }, toolContext());
    expect(r.isError).toBe(false);
    expect(textOf(r)).toMatch(/^HTTP 404 Not Found\ncontent-type: application\/json\n/);
    expect(textOf(r)).toContain('{"error":"not here"}');
  });

  it('follows redirects', async () => {
    const r = await tool('get').execute({ url: `${base}/redirect` }, toolContext());
    expect(textOf(r)).toMatch(/^HTTP 200 OK/);
    expect(textOf(r)).toContain('hello world');
  });

  it('times out with an error result', async () => {
    const started = Date.now();
    const r = await tool('get', { http: { timeoutMs: 200 } }).execute({ url: `${base}/hang` }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(`HTTP GET ${base}/hang timed out after 0.2 s`);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const r = await tool('get').execute({ url: `${base}/hang` }, toolContext(undefined, controller.signal));
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(`HTTP GET ${base}/hang was cancelled`);
  });

  it('caps the body and says it was truncated', async () => {
    const r = await tool('get', { http: { maxResponseBytes: 1000 } }).execute({ url: `${base}/big` }, toolContext());
    const text = textOf(r);
    expect(r.isError).toBe(false);
    expect(text).toContain('(body truncated: showing the first 1000 bytes)');
    expect(text.split('\n\n')[1]).toBe('x'.repeat(1000));
  });

  it('does not dump binary bodies', async () => {
    const r = await tool('get').execute({ url: `${base}/binary` }, toolContext());
    expect(textOf(r)).toContain('[binary body: 8 bytes of image/png, not shown]');
  });

  it('posts an object body as JSON by default', async () => {
    const r = await tool('post').execute({ url: `${base}/echo`, body: { a: 1, b: ['x'] } }, toolContext());
    const echoed = JSON.parse(textOf(r).split('\n\n')[1]!);
    expect(echoed).toEqual({ method: 'POST', contentType: 'application/json', body: '{"a":1,"b":["x"]}' });
  });

  it('encodes form bodies and rejects a string form body', async () => {
    const r = await tool('put').execute({ url: `${base}/echo`, body: { q: 'a b', n: 2, ok: true }, content_type: 'form' }, toolContext());
    expect(JSON.parse(textOf(r).split('\n\n')[1]!)).toEqual({
      method: 'PUT',
      contentType: 'application/x-www-form-urlencoded',
      body: 'q=a+b&n=2&ok=true',
    });
    const bad = await tool('post').execute({ url: `${base}/echo`, body: 'q=1', content_type: 'form' }, toolContext());
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toBe('input.body: content_type "form" needs an object body (field names to values)');
  });

  it('sends text bodies as is and rejects an object text body', async () => {
    const r = await tool('patch').execute({ url: `${base}/echo`, body: 'plain words', content_type: 'text' }, toolContext());
    expect(JSON.parse(textOf(r).split('\n\n')[1]!)).toEqual({ method: 'PATCH', contentType: 'text/plain; charset=utf-8', body: 'plain words' });
    const bad = await tool('post').execute({ url: `${base}/echo`, body: { a: 1 }, content_type: 'text' }, toolContext());
    expect(bad.isError).toBe(true);
  });

  it('lets caller headers override the default content type', async () => {
    const r = await tool('post').execute(
      { url: `${base}/echo`, body: { a: 1 }, headers: { 'Content-Type': 'application/vnd.api+json' } },
      toolContext(),
    );
    expect(JSON.parse(textOf(r).split('\n\n')[1]!).contentType).toBe('application/vnd.api+json');
  });

  it('sends DELETE', async () => {
    const r = await tool('delete').execute({ url: `${base}/echo` }, toolContext());
    expect(JSON.parse(textOf(r).split('\n\n')[1]!).method).toBe('DELETE');
  });

  it('refuses non-http URLs', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x']) {
      const r = await tool('get').execute({ url }, toolContext());
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/only http:\/\/ and https:\/\/ URLs are allowed/);
    }
    const r = await tool('get').execute({ url: 'not a url' }, toolContext());
    expect(textOf(r)).toBe('input.url: not an absolute URL: not a url');
  });

  it('reports a refused connection as an error result', async () => {
    const probe = http.createServer();
    const probeUrl = await listenLocal(probe);
    await closeServer(probe);
    const r = await tool('get').execute({ url: `${probeUrl}/` }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/failed: .*ECONNREFUSED/);
  });

  it('validates input before any request', async () => {
    const before = seen.length;
    const r = await tool('post').execute({ url: `${base}/echo`, body: 42 }, toolContext());
    expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'Invalid input for builtins_http_post:\n- input.body: expected object or string, got integer' }] });
    expect(seen.length).toBe(before);
  });
});
