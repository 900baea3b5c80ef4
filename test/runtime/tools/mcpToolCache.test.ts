import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { McpServer } from '../../../config/graph.js';
import { listToolsCached, mcpCachePath, mcpConfigHash } from '../../../runtime/tools/mcp/mcpToolCache.js';
import { startMcpHttpServer, type McpHttpTestServer } from '../../support/mcpHttpServer.js';
import { httpTestServer, stdioTestServer } from '../../support/mcpStdioServer.js';

let cacheDir: string;
let http: McpHttpTestServer;
/** The test server is on 127.0.0.1: the host policy refuses it unless allowed, as a run's would. */
const LOCAL = { allowedHosts: ['127.0.0.1'] };

beforeEach(async () => {
  cacheDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'squadron-cache-')), '.squadron', 'cache', 'mcp');
  http = await startMcpHttpServer();
});

afterEach(async () => {
  await http.close();
  await rm(path.dirname(path.dirname(path.dirname(cacheDir))), { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('mcpConfigHash', () => {
  it('is a sha256 of the canonical transport config, independent of key order', () => {
    const a = mcpConfigHash({ kind: 'stdio', command: 'node', args: ['s.mjs'], env: { A: '1', B: '2' } });
    const b = mcpConfigHash({ env: { B: '2', A: '1' }, args: ['s.mjs'], command: 'node', kind: 'stdio' } as never);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(b);
  });

  it('changes when any part of the transport changes', () => {
    const base = { kind: 'stdio' as const, command: 'node', args: ['s.mjs'], env: { A: '1' } };
    const hashes = new Set([
      mcpConfigHash(base),
      mcpConfigHash({ ...base, args: ['t.mjs'] }),
      mcpConfigHash({ ...base, env: { A: '2' } }),
      mcpConfigHash({ ...base, command: 'nodejs' }),
      mcpConfigHash({ kind: 'http', url: 'http://h/mcp', headers: {} }),
      mcpConfigHash({ kind: 'http', url: 'http://h/mcp', headers: { Authorization: 'x' } }),
    ]);
    expect(hashes.size).toBe(6);
  });
});

describe('listToolsCached', () => {
  it('asks the server on a miss, writes the cache, and serves the next call from it', async () => {
    const server = httpTestServer('remote', http.url, { Authorization: 'Bearer secret-token' });
    const miss = await listToolsCached(server, cacheDir, LOCAL);
    expect(miss.fromCache).toBe(false);
    expect(miss.error).toBeUndefined();
    expect(miss.tools.map((t) => t.name)).toContain('echo');
    expect(http.stats.initializations).toBe(1);

    const file = mcpCachePath(cacheDir, server);
    expect(path.basename(file)).toBe(`${mcpConfigHash(server.transport)}.json`);
    const stored = await readFile(file, 'utf8');
    expect(stored).not.toContain('secret-token');
    expect(JSON.parse(stored)).toMatchObject({ version: 1, server: 'remote' });

    const hit = await listToolsCached(server, cacheDir, LOCAL);
    expect(hit).toEqual({ tools: miss.tools, fromCache: true });
    expect(http.stats.initializations).toBe(1); // the server was not asked again
  });

  it('misses when the transport config changes', async () => {
    await listToolsCached(httpTestServer('remote', http.url), cacheDir, LOCAL);
    const changed = await listToolsCached(httpTestServer('remote', http.url, { 'X-Extra': '1' }), cacheDir, LOCAL);
    expect(changed.fromCache).toBe(false);
    expect(http.stats.initializations).toBe(2);
    expect((await readdir(cacheDir)).filter((f) => f.endsWith('.json'))).toHaveLength(2);
  });

  it('asks a remote server under the host policy: 127.0.0.1 is refused unless allowed_hosts lists it', async () => {
    const refused = await listToolsCached(httpTestServer('remote', http.url), cacheDir);
    expect(refused.fresh).toBeUndefined();
    expect(refused.error).toMatch(/127\.0\.0\.1 is a loopback address \(this machine\); such hosts are refused unless allowed_hosts lists them/);
    expect(http.stats.initializations).toBe(0);
    const allowed = await listToolsCached(httpTestServer('remote', http.url), cacheDir, { allowedHosts: ['127.0.0.1'] });
    expect(allowed.fresh).toBe(true);
    expect(http.stats.initializations).toBe(1);
  });

  it('works for stdio servers and leaves no process behind', async () => {
    const pidFile = path.join(path.dirname(path.dirname(path.dirname(cacheDir))), 'server.pid');
    const server = stdioTestServer('local', { MCP_TEST_PID_FILE: pidFile });
    const r = await listToolsCached(server, cacheDir);
    expect(r.fromCache).toBe(false);
    expect(r.tools.find((t) => t.name === 'add')).toMatchObject({ description: 'Add two numbers.', idempotent: true });
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });

  it('offline: serves a hit, and reports a miss as an error without starting anything', async () => {
    const server = httpTestServer('remote', http.url);
    const miss = await listToolsCached(server, cacheDir, { offline: true });
    expect(miss).toEqual({ tools: [], fromCache: false, error: 'no cached tool list for MCP server "remote" (run once without --offline to fill the cache)' });
    expect(http.stats.initializations).toBe(0);
    await listToolsCached(server, cacheDir, LOCAL);
    const hit = await listToolsCached(server, cacheDir, { offline: true });
    expect(hit.fromCache).toBe(true);
    expect(hit.tools.length).toBeGreaterThan(0);
  });

  it('falls back to the cached list with an error when a refresh cannot reach the server', async () => {
    const server = httpTestServer('remote', http.url);
    const first = await listToolsCached(server, cacheDir, LOCAL);
    await http.close();
    const r = await listToolsCached(server, cacheDir, { ...LOCAL, refresh: true, timeoutMs: 2000 });
    expect(r.fromCache).toBe(true);
    expect(r.tools).toEqual(first.tools);
    expect(r.error).toMatch(/^MCP server "remote" could not be started/);
  });

  it('treats a corrupt cache file as a miss', async () => {
    const server = httpTestServer('remote', http.url);
    await listToolsCached(server, cacheDir, LOCAL);
    await writeFile(mcpCachePath(cacheDir, server), '{"version":1,"tools":"nope"');
    const r = await listToolsCached(server, cacheDir, LOCAL);
    expect(r.fromCache).toBe(false);
    expect(r.tools.length).toBeGreaterThan(0);
  });

  it('reports an unreachable server with no cache as an error value', async () => {
    const dead: McpServer = { ...stdioTestServer('ghost'), transport: { kind: 'stdio', command: 'squadron-no-such-command', args: [], env: {} } };
    const r = await listToolsCached(dead, cacheDir);
    expect(r.tools).toEqual([]);
    expect(r.fromCache).toBe(false);
    expect(r.error).toMatch(/^MCP server "ghost" could not be started/);
  });
});
