// Property: for random catalogs and random authorization subsets, nothing reachable through a
// discovering worker's toolbox — the very one the runtime builds (search_tools with any query, group
// and page, get_tool_schema, calls by any name, the tools sent each turn) — ever names or runs a tool
// outside the subset.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAgentToolbox } from '../../../runtime/agents/agentToolbox.js';
import type { AgentDefinition } from '../../../runtime/agents/definitions.js';
import type { Toolbox } from '../../../runtime/tools/toolbox.js';
import { searchTools } from '../../../runtime/discovery/searchTools.js';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import type { ToolResult, ToolSpec } from '../../../runtime/tools/types.js';
import { makeTool } from './makeTool.js';

// A small shared vocabulary (with WordNet and jargon neighbours) so that queries really match.
const WORDS = ['delete', 'erase', 'remove', 'invoice', 'bill', 'client', 'customer', 'meeting', 'event', 'repo', 'file', 'folder', 'send', 'message', 'list', 'create', 'ticket', 'case'];
const GROUPS = ['crm', 'billing', 'mcp.fs', 'mcp.slack', 'secret_ops'];

const word = fc.constantFrom(...WORDS);
const toolArb = fc.record({
  verb: word,
  noun: word,
  group: fc.constantFrom(...GROUPS),
  description: fc.array(word, { minLength: 1, maxLength: 8 }),
  params: fc.array(word, { maxLength: 3 }),
  authorized: fc.boolean(),
});

const catalogArb = fc
  .uniqueArray(toolArb, { minLength: 1, maxLength: 30, selector: (t) => `${t.group}|${t.verb}_${t.noun}` })
  .map((sketches) =>
    sketches.map((s, i) => ({
      authorized: s.authorized,
      tool: makeTool({
        // The index suffix keeps API names unique even when group and words repeat.
        ref: s.group.startsWith('mcp.') ? `${s.group}.${s.verb}_${s.noun}_${i}` : `tools.${s.group}_${s.verb}_${s.noun}_${i}`,
        group: s.group,
        description: `${s.description.join(' ')}.`,
        params: Object.fromEntries(s.params.map((p) => [p, `The ${p}.`])),
      }),
    })),
  );

function text(result: ToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

function namesIn(result: ToolResult): { names: string[]; groups: string[] } {
  if (result.isError) return { names: [], groups: [] };
  const body = JSON.parse(text(result)) as { results?: Array<{ name: string; group: string }>; groups?: Array<{ name: string }> };
  return { names: (body.results ?? []).map((r) => r.name), groups: [...(body.results ?? []).map((r) => r.group), ...(body.groups ?? []).map((g) => g.name)] };
}

function suggestions(result: ToolResult): string[] {
  const m = / Similar: (.*)\.$/.exec(text(result));
  return m?.[1] ? m[1].split(', ') : [];
}

const operationArb = (hiddenNames: string[]) =>
  fc.oneof(
    fc.record({
      kind: fc.constant('search' as const),
      query: fc.option(fc.oneof(fc.array(word, { maxLength: 4 }).map((w) => w.join(' ')), fc.constantFrom('', ...hiddenNames), fc.string()), { nil: undefined }),
      group: fc.option(fc.constantFrom(...GROUPS, 'unknown'), { nil: undefined }),
      page: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    }),
    fc.record({ kind: fc.constant('schema' as const), name: fc.oneof(fc.constantFrom('x', ...hiddenNames), fc.string()) }),
  );

/** The toolbox the runtime gives a discovering worker holding exactly `authorized`. */
async function workerToolbox(authorized: ToolSpec[], alwaysLoad: string[], stored: string[]): Promise<Toolbox> {
  const def = {
    name: 'worker',
    description: '',
    model: { block: 'm', key: 'k', provider: 'replay', apiModel: 'k' },
    systemPrompt: '',
    tools: authorized,
    declaredTools: authorized.map((t) => ({ ref: t.ref, via: 'task' as const })),
    skills: [],
    preloadedSkills: [],
    discovery: { alwaysLoad, index: createToolIndex(authorized) },
    given: { tools: authorized.map((t) => ({ ref: t.ref, via: 'task' as const })), skills: [] },
    warnings: [],
    toolResponse: { maxTokens: 16_000, via: 'default' as const },
    context: { via: 'agent' as const },
  } satisfies AgentDefinition;
  return buildAgentToolbox(
    {
      resolver: { resolve: async () => [] },
      toolContext: (callId, signal) => ({ workspaceDir: '/nowhere', signal, runId: 'run', task: 't', agent: 'worker', callId }),
      stored,
      onLoaded: async () => {},
    },
    def,
  );
}

const signal = new AbortController().signal;

describe('discovery never reveals a tool outside the authorized set', () => {
  it('holds for random catalogs, subsets, searches, schema requests, calls and turn lists', async () => {
    await fc.assert(
      fc.asyncProperty(
        catalogArb.chain((catalog) => {
          const hidden = catalog.filter((c) => !c.authorized).map((c) => c.tool);
          const hiddenNames = hidden.flatMap((t) => [t.apiName, t.ref]);
          return fc.tuple(fc.constant(catalog), fc.array(operationArb(hiddenNames), { minLength: 1, maxLength: 12 }));
        }),
        async ([catalog, operations]) => {
          const ran: string[] = [];
          const spy = (tool: ToolSpec): ToolSpec => ({ ...tool, execute: async () => (ran.push(tool.ref), { content: [], isError: false }) });
          const authorized: ToolSpec[] = catalog.filter((c) => c.authorized).map((c) => spy(c.tool));
          const hidden: ToolSpec[] = catalog.filter((c) => !c.authorized).map((c) => spy(c.tool));
          const allowedNames = new Set(authorized.map((t) => t.apiName));
          const allowedGroups = new Set(authorized.map((t) => t.group));
          // Even hidden refs passed as always_load or as a stored load log never surface.
          const hiddenRefs = hidden.map((t) => t.ref);
          const toolbox = await workerToolbox(authorized, hiddenRefs, hiddenRefs);
          const run = (name: string, input: unknown) => toolbox.resolve(name)!.execute({ callId: 'c', input, signal });

          for (const op of operations) {
            if (op.kind === 'search') {
              const seen = namesIn(await run('search_tools', { query: op.query, group: op.group, page: op.page }));
              for (const name of seen.names) expect(allowedNames.has(name)).toBe(true);
              for (const group of seen.groups) expect(allowedGroups.has(group)).toBe(true);
              // A group filter enumerates that group and nothing else.
              if (op.group !== undefined && seen.names.length > 0) for (const group of seen.groups) expect(group).toBe(op.group);
            } else {
              const result = await run('get_tool_schema', { name: op.name });
              if (!result.isError) expect(allowedNames.has((JSON.parse(text(result)) as { name: string }).name)).toBe(true);
              for (const s of suggestions(result)) expect(allowedNames.has(s)).toBe(true);
            }
          }
          for (const tool of hidden) {
            expect(toolbox.resolve(tool.apiName)).toBeUndefined();
            expect(toolbox.resolve(tool.ref)).toBeUndefined();
            expect((await run('get_tool_schema', { name: tool.apiName })).isError).toBe(true);
          }
          for (const name of toolbox.definitionsForTurn().map((d) => d.name).slice(2)) expect(allowedNames.has(name)).toBe(true);
          for (const ref of ran) expect(hiddenRefs).not.toContain(ref);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('pages any query or group so that next_page covers each match exactly once', () => {
    fc.assert(
      fc.property(catalogArb, fc.array(word, { maxLength: 3 }), fc.option(fc.constantFrom(...GROUPS), { nil: undefined }), (catalog, words, group) => {
        const index = createToolIndex(catalog.map((c) => c.tool));
        const query = words.join(' ');
        const expected = index.rank(query, group).map((r) => r.tool.apiName);
        const seen: string[] = [];
        let page: number | undefined = 1;
        while (page !== undefined) {
          const result = searchTools(index, { query, group, page });
          const body = JSON.parse(text(result)) as { results?: Array<{ name: string }>; next_page?: number; no_matches?: boolean };
          if (body.no_matches) break;
          expect(body.results?.length ?? 0).toBeGreaterThan(0);
          expect(body.results?.length ?? 0).toBeLessThanOrEqual(8);
          seen.push(...(body.results ?? []).map((r) => r.name));
          page = body.next_page;
        }
        expect(seen).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
