import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { CustomTool, McpServer, MissionGraph } from '../../../config/graph.js';
import { parseHcl } from '../../../config/hcl/index.js';
import { McpConnections } from '../../../runtime/tools/mcp/connections.js';
import { buildToolRegistry } from '../../../runtime/tools/registry.js';
import { stdioTestServer } from '../../support/mcpStdioServer.js';

const loc = { file: 'm.hcl', line: 1, column: 1 };

function customTool(name: string): CustomTool {
  const { file } = parseHcl('url = "https://example.com/${inputs.q}"', 'm.hcl');
  return {
    name,
    ref: `tools.${name}`,
    implements: 'builtins.http.get',
    description: `custom ${name}`,
    inputs: [{ name: 'q', type: 'string', description: 'query', required: true }],
    fields: { url: file.body.attributes[0]!.expr },
    idempotent: true,
    location: loc,
  };
}

function graph(mcpServers: McpServer[]): MissionGraph {
  return {
    projectRoot: '/tmp',
    files: [],
    variables: [],
    models: [],
    customTools: [customTool('search')],
    mcpServers,
    toolsets: [],
    skills: [],
    agents: [],
    missions: [],
  };
}

const ghost: McpServer = { name: 'ghost', transport: { kind: 'stdio', command: 'squadron-no-such-command', args: [], env: {} }, location: loc };

let connections: McpConnections;

beforeEach(() => {
  connections = new McpConnections();
});

afterEach(async () => {
  await connections.closeAll();
});

describe('buildToolRegistry', () => {
  it('resolves refs in the given order, expanding .all in place in the server order, without duplicates', async () => {
    const registry = buildToolRegistry(graph([stdioTestServer('s1')]), { mcp: connections });
    const tools = await registry.resolve(['builtins.http.get', 'mcp.s1.add', 'tools.search', 'mcp.s1.all', 'builtins.http.get']);
    expect(tools.errors).toEqual([]);
    expect(tools.map((t) => t.ref)).toEqual([
      'builtins.http.get',
      'mcp.s1.add',
      'tools.search',
      'mcp.s1.echo',
      'mcp.s1.image',
      'mcp.s1.weather',
      'mcp.s1.weather_with_text',
      'mcp.s1.resources',
      'mcp.s1.fail',
      'mcp.s1.append_line',
      'mcp.s1.pid',
      'mcp.s1.slow',
      'mcp.s1.crash',
    ]);
    expect(tools.map((t) => t.source).slice(0, 3)).toEqual(['builtin', 'mcp', 'custom']);
  });

  it('expands builtins.<ns>.all', async () => {
    const registry = buildToolRegistry(graph([]), { mcp: connections });
    const tools = await registry.resolve(['builtins.files.all']);
    expect(tools.map((t) => t.apiName)).toEqual(['builtins_files_read', 'builtins_files_write', 'builtins_files_list']);
  });

  it('returns unresolvable refs as error values next to the resolved tools', async () => {
    const registry = buildToolRegistry(graph([stdioTestServer('s1')]), { mcp: connections });
    const tools = await registry.resolve(['mcp.s1.nope', 'mcp.zz.x', 'tools.nope', 'builtins.http.head', 'plugins.a.b', 'mcp.s1.echo']);
    expect(tools.map((t) => t.ref)).toEqual(['mcp.s1.echo']);
    expect(tools.errors).toEqual([
      {
        ref: 'mcp.s1.nope',
        message: 'MCP server "s1" has no tool "nope" (it has: echo, add, image, weather, weather_with_text, resources, fail, append_line, pid, slow, crash)',
      },
      { ref: 'mcp.zz.x', message: 'unknown MCP server "zz" in "mcp.zz.x"' },
      { ref: 'tools.nope', message: 'unknown custom tool "tools.nope"' },
      { ref: 'builtins.http.head', message: 'unknown builtin tool "builtins.http.head"' },
      { ref: 'plugins.a.b', message: 'unknown plugin "a" in "plugins.a.b"' },
    ]);
  });

  it('reports an unreachable server as an error value and still resolves the rest', async () => {
    const registry = buildToolRegistry(graph([ghost]), { mcp: connections });
    const tools = await registry.resolve(['builtins.utils.sleep', 'mcp.ghost.all']);
    expect(tools.map((t) => t.ref)).toEqual(['builtins.utils.sleep']);
    expect(tools.errors).toHaveLength(1);
    expect(tools.errors[0]!.ref).toBe('mcp.ghost.all');
    expect(tools.errors[0]!.message).toMatch(/^MCP server "ghost" could not be started: /);
  });

  it('starts a server once for several tasks resolving concurrently', async () => {
    const registry = buildToolRegistry(graph([stdioTestServer('s1')]), { mcp: connections });
    const [a, b] = await Promise.all([registry.resolve(['mcp.s1.pid']), registry.resolve(['mcp.s1.all'])]);
    const ctx = { workspaceDir: '/tmp', signal: new AbortController().signal, runId: 'r', task: 't', agent: 'worker', callId: 'c' };
    const pidA = await a[0]!.execute({}, ctx);
    const pidB = await b.find((t) => t.ref === 'mcp.s1.pid')!.execute({}, ctx);
    expect(pidA.content).toEqual(pidB.content);
  });
});
