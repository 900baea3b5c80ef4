import { describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../runtime/discovery/definitions.js';
import { oneLine, searchTools } from '../../../runtime/discovery/searchTools.js';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import type { ToolResult } from '../../../runtime/tools/types.js';
import { makeTools, sampleCatalog } from './makeTool.js';

function body(result: ToolResult): Record<string, unknown> {
  expect(result.isError).toBe(false);
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('expected text content');
  return JSON.parse(first.text) as Record<string, unknown>;
}

function errorText(result: ToolResult): string {
  expect(result.isError).toBe(true);
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** 20 tools in group "ops" (all mention "server"), 3 in "misc". */
function bigCatalog() {
  const ops = Array.from({ length: 20 }, (_, i) => ({
    ref: `tools.ops_task_${String.fromCharCode(97 + i)}`,
    group: 'ops',
    description: `Restart server number ${i} in the fleet.`,
  }));
  const misc = ['alpha', 'beta', 'gamma'].map((n) => ({ ref: `tools.misc_${n}`, group: 'misc', description: `Do ${n} things.` }));
  return createToolIndex(makeTools([...ops, ...misc]));
}

describe('search_tools', () => {
  it('returns exact names, one-line descriptions and groups', () => {
    const result = body(searchTools(createToolIndex(sampleCatalog()), { query: 'refund a payment' }));
    const results = result['results'] as Array<Record<string, string>>;
    expect(results[0]).toEqual({ name: 'tools_billing_issue_refund', description: 'Refund all or part of a payment.', group: 'billing' });
    expect(result['page']).toBe(1);
  });

  it('pages at most 8 results and chains next_page over every match exactly once', () => {
    const index = bigCatalog();
    const seen: string[] = [];
    let page: number | undefined = 1;
    let pages = 0;
    while (page !== undefined) {
      const result = body(searchTools(index, { query: 'restart the server', page }));
      const results = result['results'] as Array<{ name: string }>;
      expect(results.length).toBeLessThanOrEqual(PAGE_SIZE);
      expect(result['total']).toBe(20);
      seen.push(...results.map((r) => r.name));
      page = result['next_page'] as number | undefined;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen.length).toBe(20);
    expect(new Set(seen).size).toBe(20);
    expect(seen).toEqual(index.rank('restart the server').map((r) => r.tool.apiName));
  });

  it('answers an unmatched query with no_matches and the groups to browse', () => {
    const result = body(searchTools(bigCatalog(), { query: 'photosynthesis' }));
    expect(result).toEqual({ no_matches: true, groups: [{ name: 'misc', count: 3 }, { name: 'ops', count: 20 }] });
  });

  it('treats an unknown group and an empty request as no_matches', () => {
    const index = bigCatalog();
    expect(body(searchTools(index, { group: 'nope' }))['no_matches']).toBe(true);
    expect(body(searchTools(index, { query: 'server', group: 'nope' }))['no_matches']).toBe(true);
    expect(body(searchTools(index, {}))['no_matches']).toBe(true);
    expect(body(searchTools(index, { query: '   ' }))['no_matches']).toBe(true);
  });

  it('enumerates a group without a query, by name, paginated', () => {
    const index = bigCatalog();
    const first = body(searchTools(index, { group: 'ops' }));
    const firstNames = (first['results'] as Array<{ name: string }>).map((r) => r.name);
    expect(firstNames).toEqual([...firstNames].sort());
    expect(firstNames).toHaveLength(8);
    expect(first['next_page']).toBe(2);
    const last = body(searchTools(index, { group: 'ops', page: 3 }));
    expect(last['results']).toHaveLength(4);
    expect(last['next_page']).toBeUndefined();
  });

  it('lists the whole group with a group filter even when the query matches none of it', () => {
    const result = body(searchTools(bigCatalog(), { query: 'server', group: 'misc' }));
    expect((result['results'] as Array<{ name: string }>).map((r) => r.name)).toEqual(['tools_misc_alpha', 'tools_misc_beta', 'tools_misc_gamma']);
  });

  it('rejects a page past the last one and malformed input as error results', () => {
    const index = bigCatalog();
    expect(errorText(searchTools(index, { query: 'server', page: 4 }))).toMatch(/page 4 is past the last page \(3\)/);
    expect(errorText(searchTools(index, { query: 42 }))).toMatch(/query/);
    expect(errorText(searchTools(index, { query: 'x', page: 0 }))).toMatch(/page/);
    expect(errorText(searchTools(index, { page: 1.5 }))).toMatch(/page/);
  });

  it('ignores a missing input object', () => {
    expect(body(searchTools(bigCatalog(), undefined))['no_matches']).toBe(true);
  });
});

describe('oneLine', () => {
  it('keeps the first sentence and does not split on abbreviations', () => {
    expect(oneLine('Read a file. Handles encodings.')).toBe('Read a file.');
    expect(oneLine('Move a deal (e.g. to won). Requires a reason.')).toBe('Move a deal (e.g. to won).');
    expect(oneLine('Line one\n  continues here')).toBe('Line one continues here');
  });

  it('caps a long sentence at a word boundary with an ellipsis', () => {
    const long = `Create ${'very '.repeat(40)}long things`;
    const line = oneLine(long);
    expect(line.length).toBeLessThanOrEqual(120);
    expect(line.endsWith('…')).toBe(true);
    expect(line).not.toMatch(/ …$/);
  });
});
