import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { McpServer } from '../../../config/graph.js';
import { McpConnections, McpServerError } from '../../../runtime/tools/mcp/connections.js';
import type { ToolSpec } from '../../../runtime/tools/types.js';
import { TEST_PNG_BASE64 } from '../../support/mcpTestTools.mjs';
import { stdioTestServer } from '../../support/mcpStdioServer.js';
import { textOf, toolContext } from './toolContext.js';

let tmp: string;
/** Shared by the tests that leave the server healthy: one server start instead of one per test. */
let shared: McpConnections;
/** Fresh per test, for tests that crash or close servers. */
let connections: McpConnections;

beforeAll(() => {
  shared = new McpConnections();
});

afterAll(async () => {
  await shared.closeAll();
});

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'squadron-mcp-'));
  connections = new McpConnections();
});

afterEach(async () => {
  await connections.closeAll();
  await rm(tmp, { recursive: true, force: true });
});

async function toolNamed(server: McpServer, name: string, conns = shared): Promise<ToolSpec> {
  const tools = await conns.listTools(server);
  const spec = tools.find((t) => t.ref === `mcp.${server.name}.${name}`);
  if (!spec) throw new Error(`no tool ${name}`);
  return spec;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pidOf(server: McpServer, conns = shared): Promise<number> {
  const r = await (await toolNamed(server, 'pid', conns)).execute({}, toolContext());
  expect(r.isError).toBe(false);
  return Number(textOf(r));
}

describe('MCP over stdio', () => {
  const server = stdioTestServer('testsrv');

  it('lists tools as ToolSpecs in the server order with names, groups and idempotency', async () => {
    const tools = await shared.listTools(server);
    expect(tools.map((t) => t.ref)).toEqual([
      'mcp.testsrv.echo',
      'mcp.testsrv.add',
      'mcp.testsrv.image',
      'mcp.testsrv.weather',
      'mcp.testsrv.weather_with_text',
      'mcp.testsrv.resources',
      'mcp.testsrv.fail',
      'mcp.testsrv.append_line',
      'mcp.testsrv.pid',
      'mcp.testsrv.slow',
      'mcp.testsrv.crash',
    ]);
    const echo = tools[0]!;
    expect(echo).toMatchObject({ apiName: 'mcp_testsrv_echo', group: 'mcp.testsrv', source: 'mcp', description: 'Echo the given text back.' });
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    // readOnlyHint → idempotent; idempotentHint → idempotent; neither → not.
    expect(tools.find((t) => t.ref.endsWith('.echo'))!.idempotent).toBe(true);
    expect(tools.find((t) => t.ref.endsWith('.add'))!.idempotent).toBe(true);
    expect(tools.find((t) => t.ref.endsWith('.append_line'))!.idempotent).toBe(false);
  });

  it('calls tools and returns their text', async () => {
    expect(textOf(await (await toolNamed(server, 'echo')).execute({ text: 'hi there' }, toolContext()))).toBe('hi there');
    const sum = await (await toolNamed(server, 'add')).execute({ a: 2, b: 40 }, toolContext());
    expect(sum).toEqual({ isError: false, content: [{ type: 'text', text: '42' }] });
  });

  it('passes images through as image parts', async () => {
    const r = await (await toolNamed(server, 'image')).execute({}, toolContext());
    expect(r.content).toEqual([
      { type: 'text', text: 'here is the image' },
      { type: 'image', mediaType: 'image/png', data: TEST_PNG_BASE64 },
    ]);
  });

  it('passes structuredContent through, adding a JSON text when the server sent no text', async () => {
    const r = await (await toolNamed(server, 'weather')).execute({ city: 'Lyon' }, toolContext());
    const structured = { city: 'Lyon', celsius: 21.5, conditions: ['sunny', 'dry'] };
    expect(r.structured).toEqual(structured);
    expect(r.content).toEqual([{ type: 'text', text: JSON.stringify(structured, null, 2) }]);
    const withText = await (await toolNamed(server, 'weather_with_text')).execute({ city: 'Nice' }, toolContext());
    expect(withText.structured).toEqual({ city: 'Nice', celsius: 21.5 });
    expect(withText.content).toEqual([{ type: 'text', text: 'Nice: 21.5 °C' }]);
  });

  it('keeps embedded resources and links verbatim and renders them as text', async () => {
    const r = await (await toolNamed(server, 'resources')).execute({}, toolContext());
    expect(r.resources).toEqual([
      { kind: 'resource', uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'the notes' },
      { kind: 'resource', uri: 'file:///data.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' },
      { kind: 'resource_link', uri: 'file:///big.csv', name: 'big.csv', mimeType: 'text/csv' },
    ]);
    expect(textOf(r)).toBe(
      [
        '[resource file:///notes.txt (text/plain)]\nthe notes',
        '[resource file:///data.bin (application/octet-stream): 4 bytes of binary data, not shown]',
        '[resource link: big.csv <file:///big.csv>: a large table]',
      ].join('\n'),
    );
  });

  it('preserves isError from the server', async () => {
    const r = await (await toolNamed(server, 'fail')).execute({ message: 'quota exceeded' }, toolContext());
    expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'quota exceeded' }] });
  });

  it('validates input against the server schema before calling', async () => {
    const r = await (await toolNamed(server, 'add')).execute({ a: 'two', b: 1 }, toolContext());
    expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'Invalid input for mcp_testsrv_add:\n- input.a: expected number, got string' }] });
  });

  it('runs tools with visible side effects, with the configured env', async () => {
    const file = path.join(tmp, 'lines.txt');
    const withEnv = stdioTestServer('appender', { MCP_TEST_APPEND_FILE: file });
    const append = await toolNamed(withEnv, 'append_line');
    await append.execute({ line: 'first' }, toolContext());
    await append.execute({ line: 'second' }, toolContext());
    expect(await readFile(file, 'utf8')).toBe('first\nsecond\n');
  });

  it('starts a server once and shares it between concurrent users', async () => {
    const pids = await Promise.all([pidOf(server, connections), pidOf(server, connections), pidOf(server, connections)]);
    expect(new Set(pids).size).toBe(1);
    const client = await connections.get(server);
    expect(client.getServerVersion()?.name).toBe('squadron-test-stdio');
  });

  it('restarts a crashed server once, then reports it unavailable', async () => {
    const firstPid = await pidOf(server, connections);
    const crash = await toolNamed(server, 'crash', connections);
    const echo = await toolNamed(server, 'echo', connections);

    const died = await crash.execute({}, toolContext());
    expect(died.isError).toBe(true);
    expect(textOf(died)).toMatch(/^MCP server "testsrv" stopped during the call to "crash" \(it will be restarted on the next call\)/);
    expect(textOf(died)).toContain('crashing on purpose'); // the server's stderr explains the death

    expect(textOf(await echo.execute({ text: 'back' }, toolContext()))).toBe('back');
    const secondPid = await pidOf(server, connections);
    expect(secondPid).not.toBe(firstPid);
    expect(isAlive(firstPid)).toBe(false);

    const diedAgain = await crash.execute({}, toolContext());
    expect(textOf(diedAgain)).toMatch(/^MCP server "testsrv" stopped during the call to "crash" \(it will not be restarted again\)/);

    const after = await echo.execute({ text: 'anyone?' }, toolContext());
    expect(after.isError).toBe(true);
    expect(textOf(after)).toMatch(/^MCP server "testsrv" is unavailable: it failed 2 times during this run/);
    await expect(connections.get(server)).rejects.toBeInstanceOf(McpServerError);
  });

  it('closeAll terminates every child process and later calls are error results', async () => {
    const other = stdioTestServer('other');
    const pids = [await pidOf(server, connections), await pidOf(other, connections)];
    const echo = await toolNamed(server, 'echo', connections);
    expect(pids.every(isAlive)).toBe(true);
    const started = Date.now();
    await connections.closeAll();
    const closeMs = Date.now() - started;
    expect(pids.some(isAlive)).toBe(false);
    expect(closeMs).toBeLessThan(10_000); // the SDK's worst case is ~4 s (grace, SIGTERM, SIGKILL)
    const r = await echo.execute({ text: 'late' }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('MCP server "testsrv" is closed: the run is ending');
  });

  it('times out a slow call without killing the server', async () => {
    // The limit leaves a busy machine room for the quick calls; the slow one would take minutes.
    const quick = new McpConnections({ callTimeoutMs: 5000 });
    try {
      const slow = await toolNamed(server, 'slow', quick);
      const r = await slow.execute({ ms: 600_000 }, toolContext());
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('the call to "slow" on MCP server "testsrv" timed out: no result and no progress within 5 s');
      expect(textOf(await (await toolNamed(server, 'echo', quick)).execute({ text: 'still here' }, toolContext()))).toBe('still here');
    } finally {
      await quick.closeAll();
    }
  });

  it('cancels a call when the run is cancelled', async () => {
    const slow = await toolNamed(server, 'slow');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const r = await slow.execute({ ms: 600_000 }, toolContext(undefined, controller.signal));
    expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'the call to "slow" on MCP server "testsrv" was cancelled' }] });
  });
});

describe('MCP servers that cannot start', () => {
  it('reports a missing command, retries once, then gives up', async () => {
    const missing: McpServer = { ...stdioTestServer('ghost'), transport: { kind: 'stdio', command: 'squadron-no-such-command', args: [], env: {} } };
    const first = await connections.callTool(missing, 'echo', {});
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(/^MCP server "ghost" could not be started: .*squadron-no-such-command/);
    await expect(connections.listTools(missing)).rejects.toThrow(/could not be started/);
    const third = await connections.callTool(missing, 'echo', {});
    expect(textOf(third)).toMatch(/^MCP server "ghost" is unavailable: it failed 2 times/);
  });

  it('includes the stderr of a server that exits during the handshake', async () => {
    const dies: McpServer = {
      ...stdioTestServer('dies'),
      transport: { kind: 'stdio', command: process.execPath, args: ['-e', 'console.error("bad config: missing token"); process.exit(2)'], env: {} },
    };
    const r = await connections.callTool(dies, 'echo', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/could not be started: .*\n?server stderr:\nbad config: missing token/);
  });

  it('bounds the handshake with the connect timeout and kills the silent process', async () => {
    const pidFile = path.join(tmp, 'silent.pid');
    const silent: McpServer = {
      ...stdioTestServer('silent'),
      transport: {
        kind: 'stdio',
        command: process.execPath,
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`],
        env: {},
      },
    };
    const quick = new McpConnections({ connectTimeoutMs: 300 });
    const started = Date.now();
    const r = await quick.callTool(silent, 'echo', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/could not be started: .*timed out/i);
    await quick.closeAll();
    expect(Date.now() - started).toBeLessThan(30_000); // bounded, not hung: the SDK's worst case is ~4 s
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(false);
  });
});
