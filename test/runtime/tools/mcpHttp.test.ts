import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { McpServer } from '../../../config/graph.js';
import { McpConnections } from '../../../runtime/tools/mcp/connections.js';
import type { ToolSpec } from '../../../runtime/tools/types.js';
import { startMcpHttpServer, type McpHttpTestServer } from '../../support/mcpHttpServer.js';
import { httpTestServer } from '../../support/mcpStdioServer.js';
import { TEST_PNG_BASE64 } from '../../support/mcpTestTools.mjs';
import { textOf, toolContext } from './toolContext.js';

let tmp: string;
let http: McpHttpTestServer;
let server: McpServer;
let connections: McpConnections;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'squadron-mcp-http-'));
  http = await startMcpHttpServer({ appendFile: path.join(tmp, 'lines.txt'), requiredHeaders: { 'X-Api-Key': 'k1' } });
  server = httpTestServer('remote', http.url, { 'X-Api-Key': 'k1' });
  connections = new McpConnections();
});

afterEach(async () => {
  await connections.closeAll();
  await http.close();
  await rm(tmp, { recursive: true, force: true });
});

async function toolNamed(name: string): Promise<ToolSpec> {
  const spec = (await connections.listTools(server)).find((t) => t.ref === `mcp.remote.${name}`);
  if (!spec) throw new Error(`no tool ${name}`);
  return spec;
}

describe('MCP over Streamable HTTP', () => {
  it('lists tools with the configured headers', async () => {
    const tools = await connections.listTools(server);
    expect(tools.map((t) => t.apiName).slice(0, 3)).toEqual(['mcp_remote_echo', 'mcp_remote_add', 'mcp_remote_image']);
    expect(tools.every((t) => t.group === 'mcp.remote' && t.source === 'mcp')).toBe(true);
  });

  it('fails to connect without the required header, as a value', async () => {
    const noKey = httpTestServer('remote', http.url);
    const r = await connections.callTool(noKey, 'echo', { text: 'x' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^MCP server "remote" could not be started: .*401/);
  });

  it('calls tools, passes images, structured content and errors through', async () => {
    expect(textOf(await (await toolNamed('echo')).execute({ text: 'over http' }, toolContext()))).toBe('over http');
    const image = await (await toolNamed('image')).execute({}, toolContext());
    expect(image.content[1]).toEqual({ type: 'image', mediaType: 'image/png', data: TEST_PNG_BASE64 });
    const weather = await (await toolNamed('weather')).execute({ city: 'Oslo' }, toolContext());
    expect(weather.structured).toEqual({ city: 'Oslo', celsius: 21.5, conditions: ['sunny', 'dry'] });
    expect(JSON.parse(textOf(weather))).toEqual(weather.structured);
    const fail = await (await toolNamed('fail')).execute({}, toolContext());
    expect(fail).toEqual({ isError: true, content: [{ type: 'text', text: 'it failed on purpose' }] });
  });

  it('has visible side effects', async () => {
    await (await toolNamed('append_line')).execute({ line: 'via http' }, toolContext());
    expect(await readFile(path.join(tmp, 'lines.txt'), 'utf8')).toBe('via http\n');
  });

  it('reconnects once after the server loses the connection, then reports it unavailable', async () => {
    const crash = await toolNamed('crash');
    const echo = await toolNamed('echo');
    expect(http.stats.initializations).toBe(1);

    const died = await crash.execute({}, toolContext());
    expect(died.isError).toBe(true);
    expect(textOf(died)).toMatch(/^MCP server "remote" stopped during the call to "crash" \(it will be restarted on the next call\)/);

    expect(textOf(await echo.execute({ text: 'again' }, toolContext()))).toBe('again');
    expect(http.stats.initializations).toBe(2);

    const diedAgain = await crash.execute({}, toolContext());
    expect(textOf(diedAgain)).toMatch(/\(it will not be restarted again\)/);
    const after = await echo.execute({ text: 'x' }, toolContext());
    expect(textOf(after)).toMatch(/^MCP server "remote" is unavailable: it failed 2 times/);
    expect(http.stats.initializations).toBe(2);
  });

  it('reconnects and resends transparently when the server forgot the session while idle', async () => {
    const echo = await toolNamed('echo');
    expect(textOf(await echo.execute({ text: 'one' }, toolContext()))).toBe('one');
    http.dropSessions();
    const r = await echo.execute({ text: 'two' }, toolContext());
    expect(r).toEqual({ isError: false, content: [{ type: 'text', text: 'two' }] });
    expect(http.stats.initializations).toBe(2);
  });

  it('returns error results when the host goes away', async () => {
    const echo = await toolNamed('echo');
    await http.close();
    const r = await echo.execute({ text: 'hello?' }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^MCP server "remote" stopped during the call to "echo" \(it will be restarted on the next call\): .*(fetch failed|ECONNREFUSED)/);
    const again = await echo.execute({ text: 'hello?' }, toolContext());
    expect(textOf(again)).toMatch(/^MCP server "remote" could not be started/);
  });

  it('ends its HTTP session on closeAll', async () => {
    await toolNamed('echo');
    expect(http.sessionCount()).toBe(1);
    await connections.closeAll();
    expect(http.sessionCount()).toBe(0);
  });
});
