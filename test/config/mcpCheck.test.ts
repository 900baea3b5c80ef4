// The MCP reference check: unknown tools reported at the exact reference, unreachable servers at
// their declaration, nothing contacted when validateProject has no lister.

import { afterAll, expect, test } from 'vitest';
import { checkMcpReferences, type McpToolLister } from '../../config/mcpCheck.js';
import { at, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const src = `mcp "fs" {\n  command = "fs-server"\n}\nmcp "web" {\n  url = "https://mcp.example.com"\n}\nmcp "unused" {\n  command = "x"\n}\ntoolset "io" {\n  tools = [mcp.fs.read_file, mcp.fs.wirte_file]\n}\n${withMission('  task "a" {\n    objective = "x"\n    tools = [toolsets.io, mcp.web.all, mcp.web.search]\n  }\n')}`;

test('unknown tools are MCP001 at the reference, with did-you-mean', async () => {
  const graph = loadHcl(src).graph!;
  const asked: string[] = [];
  const lister: McpToolLister = async (server) => {
    asked.push(server.name);
    return server.name === 'fs' ? ['read_file', 'write_file'] : ['search', 'fetch'];
  };
  const diags = await checkMcpReferences(graph, lister);
  expect(asked.sort()).toEqual(['fs', 'web']);
  expect(diags.map((d) => `${d.code}@${d.line}:${d.column}`)).toEqual([`MCP001@${at(src, 'mcp.fs.wirte_file')}`]);
  expect(diags[0]!.hint).toBe('did you mean mcp.fs.write_file?');
});

test('an unreachable server is MCP002 at its block', async () => {
  const graph = loadHcl(src).graph!;
  const diags = await checkMcpReferences(graph, async (s) => (s.name === 'web' ? { error: 'connection refused' } : ['read_file', 'wirte_file']));
  expect(diags.map((d) => `${d.code}@${d.line}:${d.column}`)).toEqual([`MCP002@${at(src, 'mcp "web"')}`]);
  expect(diags[0]!.message).toContain('connection refused');
});

test('a lister that throws counts as unreachable', async () => {
  const graph = loadHcl(src).graph!;
  const diags = await checkMcpReferences(graph, async () => {
    throw new Error('boom');
  });
  expect(diags.map((d) => d.code)).toEqual(['MCP002', 'MCP002']);
});

test('validateProject runs the MCP pass after loading and drops the graph on an MCP error', async () => {
  const { validateProject } = await import('../../config/validateProject.js');
  const { tempProject } = await import('./support.js');
  const dir = tempProject({ 'main.hcl': src });
  const lister: McpToolLister = async () => ['read_file', 'write_file', 'search'];
  const checked = await validateProject(dir, { env: {}, mcpTools: lister });
  expect(checked.graph).toBeUndefined();
  expect(checked.diagnostics.map((d) => d.code)).toEqual(['MCP001']);
  // From cached lists the same finding is a warning: the config stays valid.
  const cached = await validateProject(dir, { env: {}, mcpTools: lister, mcpSource: 'cache' });
  expect([cached.graph !== undefined, cached.diagnostics.map((d) => `${d.severity} ${d.code}`)]).toEqual([true, ['warning MCP001']]);
  const unchecked = await validateProject(dir, { env: {}, mcpTools: undefined });
  expect([unchecked.graph !== undefined, unchecked.diagnostics]).toEqual([true, []]);
});

test('unknown prompt names are MCP004 at the skill reference; a server only named for prompts is asked for them', async () => {
  const promptSrc = `mcp "tips" {\n  command = "tips-server"\n}\n${withMission('  task "a" {\n    objective = "x"\n    tools  = [builtins.utils.current_time]\n    skills = [mcp.tips.prompts.greeting, mcp.tips.prompts.greetng, mcp.tips.prompts]\n  }\n')}`;
  const graph = loadHcl(promptSrc).graph!;
  const wants: boolean[] = [];
  const listed = await checkMcpReferences(graph, async (_server, want) => {
    wants.push(want?.prompts === true);
    return { tools: [], taskOnly: [], prompts: ['greeting', 'farewell'] };
  });
  expect(wants).toEqual([true]);
  expect(listed.map((d) => `${d.code}@${d.line}:${d.column}`)).toEqual([`MCP004@${at(promptSrc, 'mcp.tips.prompts.greetng')}`]);
  expect(listed[0]!.hint).toBe('did you mean mcp.tips.prompts.greeting?');
  // Prompts not listed (offline, or the listing failed): the names stay unchecked.
  expect(await checkMcpReferences(graph, async () => ({ tools: [], taskOnly: [] }))).toEqual([]);
});
