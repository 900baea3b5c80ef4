// What a downstream commander is shown of an iterated upstream task: a digest of fixed size (counts,
// the output's fields, two example outputs) instead of every item's output. The rest is read with
// query_task_output, so the commander's first request does not grow with the number of items.

import type { FieldSchema, TaskSpec } from '../../config/graph.js';
import type { ItemRow, Store } from '../../store/index.js';
import type { ItemsDigest, UpstreamResult } from './taskResults.js';

export type { ItemsDigest } from './taskResults.js';

const EXAMPLES = 2;
const EXAMPLE_CHARS = 400;

/** Upstream results with a digest for each iterated task among them (read from the store). */
export async function withItemDigests(store: Store, runId: string, tasks: readonly TaskSpec[], upstream: UpstreamResult[]): Promise<UpstreamResult[]> {
  const out: UpstreamResult[] = [];
  for (const result of upstream) {
    const spec = tasks.find((t) => t.name === result.name);
    if (spec?.iterator === undefined) {
      out.push(result);
      continue;
    }
    out.push({ ...result, items: itemsDigest(await store.items.list(runId, result.name), spec.output) });
  }
  return out;
}

export function itemsDigest(rows: readonly ItemRow[], schema: readonly FieldSchema[] | undefined): ItemsDigest {
  const done = rows.filter((r) => r.status === 'completed');
  const examples = done.filter((r) => r.output !== undefined).slice(0, EXAMPLES);
  const fields =
    schema !== undefined
      ? schema.map((f) => `${f.name} (${f.type}${f.required ? ', required' : ''})`)
      : [...new Set(examples.flatMap((r) => (isRecord(r.output) ? Object.keys(r.output) : [])))];
  return {
    total: rows.length,
    completed: done.length,
    failed: rows.filter((r) => r.status === 'failed').length,
    fields,
    examples: examples.map((r) => ({ index: r.index, output: clip(JSON.stringify(r.output), EXAMPLE_CHARS) })),
  };
}

/**
 * What plan shows in place of an iterated upstream task's digest: its counts (when the items are
 * known), its fields, and placeholders where the example outputs go; and the most bytes the real
 * digest can take (examples at their full length, counts of seven digits), whatever the item count.
 */
export function plannedDigest(name: string, items: number | null, schema: readonly FieldSchema[] | undefined): { digest: ItemsDigest; bytes: number; maxBytes: number } {
  const fields = schema?.map((f) => `${f.name} (${f.type}${f.required ? ', required' : ''})`) ?? [];
  const examples = Array.from({ length: EXAMPLES }, (_, index) => ({ index, output: `(the output of item ${index}, known when it completes)` }));
  const digest: ItemsDigest = { total: items, completed: items ?? 0, failed: 0, fields, examples };
  const widest: ItemsDigest = { total: 9_999_999, completed: 9_999_999, failed: 9_999_999, fields, examples: examples.map((e) => ({ index: 9_999_999, output: 'x'.repeat(EXAMPLE_CHARS) })) };
  return { digest, bytes: Buffer.byteLength(digestText(name, digest)), maxBytes: Buffer.byteLength(digestText(name, widest)) };
}

/** The digest as the prompt shows it. */
export function digestText(name: string, d: ItemsDigest): string {
  const lines = [
    d.total === null ? 'Iterated over its items (how many, and how many completed, known when it completes).' : `Iterated over ${d.total} item${d.total === 1 ? '' : 's'}: ${d.completed} completed, ${d.failed} failed.`,
  ];
  if (d.fields.length > 0) lines.push(`Each item's output has the fields: ${d.fields.join(', ')}.`);
  for (const e of d.examples) lines.push(`Example, item ${e.index}: ${e.output}`);
  lines.push(`The items' outputs are not listed here: read them with query_task_output {task: "${name}", …} (filter with where, pick fields, page with limit/offset, count, group_by).`);
  return lines.join('\n');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
