// Property: for random catalogs and random authorization subsets, nothing reachable through
// discovery — search (any query, group, page), schema requests, lookups, call resolution, loaded
// state or the per-turn tool list — ever names a tool outside the subset.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDiscoveryState } from '../../../runtime/discovery/state.js';
import { searchTools } from '../../../runtime/discovery/searchTools.js';
import { getToolSchema, resolveToolCall } from '../../../runtime/discovery/toolSchema.js';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import { toolsForTurn } from '../../../runtime/discovery/turnTools.js';
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

describe('discovery never reveals a tool outside the authorized set', () => {
  it('holds for random catalogs, subsets, searches, schema requests and lookups', () => {
    fc.assert(
      fc.property(
        catalogArb.chain((catalog) => {
          const hidden = catalog.filter((c) => !c.authorized).map((c) => c.tool);
          const hiddenNames = hidden.flatMap((t) => [t.apiName, t.ref]);
          return fc.tuple(fc.constant(catalog), fc.array(operationArb(hiddenNames), { minLength: 1, maxLength: 12 }));
        }),
        ([catalog, operations]) => {
          const authorized: ToolSpec[] = catalog.filter((c) => c.authorized).map((c) => c.tool);
          const hidden: ToolSpec[] = catalog.filter((c) => !c.authorized).map((c) => c.tool);
          const allowedNames = new Set(authorized.map((t) => t.apiName));
          const allowedGroups = new Set(authorized.map((t) => t.group));
          const index = createToolIndex(authorized);
          const state = createDiscoveryState(index, hidden.map((t) => t.ref));
          expect(state.loaded()).toEqual([]);

          for (const op of operations) {
            if (op.kind === 'search') {
              const seen = namesIn(searchTools(index, { query: op.query, group: op.group, page: op.page }));
              for (const name of seen.names) expect(allowedNames.has(name)).toBe(true);
              for (const group of seen.groups) expect(allowedGroups.has(group)).toBe(true);
              // A group filter enumerates that group and nothing else.
              if (op.group !== undefined && seen.names.length > 0) for (const group of seen.groups) expect(group).toBe(op.group);
            } else {
              const result = getToolSchema(index, state, { name: op.name });
              if (!result.isError) expect(allowedNames.has((JSON.parse(text(result)) as { name: string }).name)).toBe(true);
              for (const s of suggestions(result)) expect(allowedNames.has(s)).toBe(true);
            }
          }
          for (const tool of hidden) {
            expect(index.lookup(tool.apiName)).toBeUndefined();
            expect(index.lookup(tool.ref)).toBeUndefined();
            expect(getToolSchema(index, state, { name: tool.apiName }).isError).toBe(true);
            expect('error' in resolveToolCall(index, tool.ref)).toBe(true);
            expect(state.markLoaded(tool.ref)).toBe(false);
          }
          for (const ref of state.loaded()) expect(allowedNames.has(index.lookup(ref)?.apiName ?? '')).toBe(true);
          // Even if the caller mistakenly passes hidden refs as always_load, the tool list drops them.
          const turn = toolsForTurn(state, hidden.map((t) => t.ref), authorized).map((d) => d.name);
          for (const name of turn.slice(2)) expect(allowedNames.has(name)).toBe(true);
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
