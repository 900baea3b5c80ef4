// query_task_output over stored items, and the digest a downstream commander is shown.

import { describe, expect, it } from 'vitest';
import { queryItems } from '../../../runtime/agents/queryTaskOutput.js';
import { digestText, itemsDigest } from '../../../runtime/agents/digest.js';
import type { ItemRow } from '../../../store/index.js';

const rows: ItemRow[] = [
  { runId: 'r', task: 't', index: 0, status: 'completed', attempt: 1, summary: 's0', output: { priority: 'high', score: 9, tags: ['billing'] } },
  { runId: 'r', task: 't', index: 1, status: 'completed', attempt: 1, summary: 's1', output: { priority: 'low', score: 10 } },
  { runId: 'r', task: 't', index: 2, status: 'failed', attempt: 2, error: 'timeout' },
  { runId: 'r', task: 't', index: 3, status: 'completed', attempt: 1, summary: 's3', output: { priority: 'high', score: 2, nested: { team: 'ops' } } },
];

describe('queryItems', () => {
  it('compares numbers as numbers, strings as text, and never matches a missing field', () => {
    expect(queryItems(rows, { where: [{ field: 'score', op: 'gt', value: '8' }], fields: ['score'] })).toEqual({
      matching: 2,
      offset: 0,
      items: [
        { index: 0, status: 'completed', output: { score: 9 } },
        { index: 1, status: 'completed', output: { score: 10 } },
      ],
    });
    expect(queryItems(rows, { where: [{ field: 'nested.team', value: 'ops' }], count: true })).toEqual({ matching: 1, of: 4 });
    expect(queryItems(rows, { where: [{ field: 'tags', op: 'contains', value: 'billing' }], count: true })).toEqual({ matching: 1, of: 4 });
    expect(queryItems(rows, { where: [{ field: 'absent', op: 'ne', value: 'x' }], count: true })).toEqual({ matching: 0, of: 4 });
  });

  it('groups, pages with next_offset, and reads failed items on request', () => {
    expect(queryItems(rows, { group_by: 'priority' })).toEqual({ matching: 3, group_by: 'priority', counts: { high: 2, low: 1 } });
    expect(queryItems(rows, { limit: 1, offset: 1, fields: ['priority'] })).toEqual({ matching: 3, offset: 1, items: [{ index: 1, status: 'completed', output: { priority: 'low' } }], next_offset: 2 });
    expect(queryItems(rows, { status: 'failed' })).toEqual({ matching: 1, offset: 0, items: [{ index: 2, status: 'failed', error: 'timeout' }] });
    expect(queryItems(rows, { status: 'all', item: 3, fields: ['nested.team'] })).toMatchObject({ items: [{ index: 3, output: { 'nested.team': 'ops' } }] });
  });
});

describe('itemsDigest', () => {
  it('holds counts, the schema fields and two clipped examples, whatever the number of items', () => {
    const many: ItemRow[] = Array.from({ length: 1000 }, (_, i) => ({ runId: 'r', task: 't', index: i, status: 'completed', attempt: 1, output: { text: 'x'.repeat(2000) } }));
    const digest = itemsDigest(many, [{ name: 'text', type: 'string', description: '', required: true }]);
    expect(digest).toMatchObject({ total: 1000, completed: 1000, failed: 0, fields: ['text (string, required)'] });
    expect(digest.examples.map((e) => e.index)).toEqual([0, 1]);
    expect(digestText('t', digest).length).toBeLessThan(1200);
    expect(itemsDigest(rows, undefined).fields).toEqual(['priority', 'score', 'tags']);
  });
});
