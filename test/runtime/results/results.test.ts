// Stored results, module by module: the interception point's threshold and content addressing, the
// preview's determinism and size, JSON paths, and the read tools' paging, search and visibility.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../store/index.js';
import { offloadResult, resultTools, type ResultScope } from '../../../runtime/results/index.js';
import { jsonShape } from '../../../runtime/results/jsonShape.js';
import { parsePath, walk } from '../../../runtime/results/jsonPath.js';
import { estimateTokens } from '../../../runtime/results/size.js';
import type { ToolResult } from '../../../runtime/tools/types.js';

let store: Store | undefined;
afterEach(() => store?.close());

async function scopes(maxTokens = 1_000): Promise<{ a: ResultScope; b: ResultScope }> {
  store = openStore(join(mkdtempSync(join(tmpdir(), 'sq-results-')), 'db.sqlite'));
  const run = await store.runs.create({ mission: 'm', configPath: '/p', inputs: {} });
  const open = async (agent: string) => (await store!.sessions.open({ runId: run.id, task: 't', agent, role: 'agent', model: 'x', systemPrompt: 's', tools: [], skills: [] })).id;
  return { a: { store, runId: run.id, sessionId: await open('worker'), maxTokens }, b: { store, runId: run.id, sessionId: await open('other'), maxTokens } };
}

const text = (t: string): ToolResult => ({ content: [{ type: 'text', text: t }], isError: false });
const textOf = (r: ToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const handleOf = (r: ToolResult): string => /res_[0-9a-f]{16}/.exec(textOf(r))![0];

async function call(scope: ResultScope, name: string, input: unknown): Promise<ToolResult> {
  const tool = resultTools(scope).find((t) => t.ref === name)!;
  return tool.execute({ callId: 'c', input, signal: new AbortController().signal });
}

const rows = (n: number) => JSON.stringify({ items: Array.from({ length: n }, (_, id) => ({ id, name: `n${id}`, pad: 'p'.repeat(40) })) });

describe('offloadResult', () => {
  it('passes a result at the limit through untouched and stores one a byte over it', async () => {
    const { a } = await scopes();
    const fits = text('x'.repeat(3_000));
    expect(estimateTokens(fits.content)).toBe(1_000);
    expect(await offloadResult(a, fits)).toBe(fits);
    const over = await offloadResult(a, text('x'.repeat(3_001)));
    expect(textOf(over)).toMatch(/^\[stored result res_[0-9a-f]{16}\]/);
  });

  it('gives the same handle and the same preview bytes for the same payload, stored once per run', async () => {
    const { a, b } = await scopes();
    const big = text(rows(500));
    const first = await offloadResult(a, big);
    const again = await offloadResult(a, big);
    const elsewhere = await offloadResult(b, big);
    expect(textOf(again)).toBe(textOf(first));
    expect(textOf(elsewhere)).toBe(textOf(first));
    expect((await store!.storedResults.read(b.sessionId, handleOf(first)))?.payload.text).toBe(rows(500));
  });

  it('keeps structured content and resources, but not structured content its text already renders', async () => {
    const { a } = await scopes();
    const doc = JSON.parse(rows(100)) as unknown;
    const rendered = await offloadResult(a, { ...text(JSON.stringify(doc, null, 2)), structured: doc });
    expect((await store!.storedResults.read(a.sessionId, handleOf(rendered)))?.payload.structured).toBeUndefined();
    const resources = [{ kind: 'resource_link' as const, uri: 'file:///a.csv', name: 'a.csv' }];
    const beside = await offloadResult(a, { ...text('log line\n'.repeat(500)), structured: doc, resources });
    const kept = (await store!.storedResults.read(a.sessionId, handleOf(beside)))?.payload;
    expect(kept?.structured).toEqual(doc);
    expect(kept?.resources).toEqual(resources);
  });

  it('keeps the error flag of a stored result', async () => {
    const { a } = await scopes();
    expect((await offloadResult(a, { ...text('e'.repeat(10_000)), isError: true })).isError).toBe(true);
  });
});

describe('previews', () => {
  it('fit the budget at every size, and shorten strings and arrays to do so', () => {
    const value = JSON.parse(rows(2_000)) as unknown;
    for (const budget of [200, 600, 1_500, 4_000]) expect(Buffer.byteLength(jsonShape(value, budget))).toBeLessThanOrEqual(budget);
    expect(jsonShape(value, 1_500)).toContain('more (2,000 items)');
  });
});

describe('JSON paths', () => {
  it('reads keys, quoted keys and indexes, negative ones from the end', () => {
    const doc = { a: { 'b c': [1, 2, 3] } };
    const path = parsePath('$.a["b c"][-1]');
    expect(path).toEqual({ steps: ['a', 'b c', -1] });
    expect(walk(doc, (path as { steps: (string | number)[] }).steps)).toEqual({ value: 3 });
    expect(walk(doc, ['a', 'x'])).toEqual({ error: '$.a has no key "x"; its keys: b c' });
    expect(parsePath('$.a[')).toHaveProperty('error');
  });
});

describe('result_read and result_search', () => {
  it('pages an array within the limit, each page starting where the last one stopped', async () => {
    const { a } = await scopes();
    const handle = handleOf(await offloadResult(a, text(rows(500))));
    const first = textOf(await call(a, 'result_read', { handle, path: '$.items' }));
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(3_000);
    const next = Number(/Continue with offset (\d+)/.exec(first)![1]);
    const second = textOf(await call(a, 'result_read', { handle, path: '$.items', offset: next, limit: 2 }));
    expect(second).toBe(`Items ${next}–${next + 1} of 500 in $.items. Continue with offset ${next + 2}.\n[${JSON.stringify({ id: next, name: `n${next}`, pad: 'p'.repeat(40) })},\n${JSON.stringify({ id: next + 1, name: `n${next + 1}`, pad: 'p'.repeat(40) })}]`);
  });

  it('reads a range of text and finds lines by substring or RE2 regex', async () => {
    const { a } = await scopes();
    const lines = Array.from({ length: 2_000 }, (_, i) => `row ${i}${i === 1234 ? ' target' : ''}`).join('\n');
    const handle = handleOf(await offloadResult(a, text(lines)));
    const found = textOf(await call(a, 'result_search', { handle, pattern: 'row 12\\d4 target$', regex: true }));
    const offset = Number(/offset (\d+)/.exec(found)![1]);
    expect(found).toMatch(/^1 match in res_[0-9a-f]{16}:\nline 1235, offset \d+: row 1234 target$/);
    expect(textOf(await call(a, 'result_read', { handle, offset, limit: 15 }))).toContain('\nrow 1234 target');
    expect((await call(a, 'result_search', { handle, pattern: '(', regex: true })).isError).toBe(true);
  });

  it('finds JSON values by key or value, never by array index', async () => {
    const { a } = await scopes();
    const handle = handleOf(await offloadResult(a, text(rows(500))));
    const byValue = textOf(await call(a, 'result_search', { handle, pattern: 'n499' }));
    expect(byValue).toBe(`1 match in ${handle}:\n$.items[499].name = "n499"`);
    const byKey = textOf(await call(a, 'result_search', { handle, pattern: 'name', max_matches: 2 }));
    expect(byKey).toBe(`500 matches (2 shown) in ${handle}:\n$.items[0].name = "n0"\n$.items[1].name = "n1"`);
    expect(textOf(await call(a, 'result_search', { handle, pattern: '^9$', regex: true }))).toBe(`1 match in ${handle}:\n$.items[9].id = 9`);
    const list = handleOf(await offloadResult(a, text(JSON.stringify({ list: Array.from({ length: 1_500 }, (_, i) => `v${i}`) }))));
    expect(textOf(await call(a, 'result_search', { handle: list, pattern: '^1$', regex: true }))).toBe(`No match for "^1$" in ${list}.`);
  });

  it('refuses a handle the session does not hold until it is shared with it', async () => {
    const { a, b } = await scopes();
    const handle = handleOf(await offloadResult(a, text(rows(500))));
    const refused = await call(b, 'result_read', { handle, path: '$.items[0].id' });
    expect(refused.isError).toBe(true);
    expect(await store!.storedResults.hasAny(b.sessionId)).toBe(false);
    expect(await store!.storedResults.share(handle, a.sessionId, b.sessionId)).toBe(true);
    expect(textOf(await call(b, 'result_read', { handle, path: '$.items[0].id' }))).toBe('0');
    expect(await store!.storedResults.share('res_0000000000000000', a.sessionId, b.sessionId)).toBe(false);
  });
});
