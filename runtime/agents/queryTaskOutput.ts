// query_task_output: a downstream commander reads upstream results on demand instead of having them
// all in its prompt. For an iterated task: filter items by field values, pick fields, page with
// limit/offset, count, or count per value of a field. A task that ran once answers with its summary
// and output (fields picked the same way).

import { z } from 'zod';
import type { ItemRow, Store } from '../../store/index.js';
import type { UpstreamResult } from './taskResults.js';
import { formatZodIssues, toolInputSchema } from './commanderTools.js';
import type { SessionTool } from '../tools/toolbox.js';
import type { ToolResult } from '../tools/types.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export interface QuerySource {
  store: Store;
  runId: string;
  upstream: readonly UpstreamResult[];
}

const OPS = ['eq', 'ne', 'contains', 'gt', 'gte', 'lt', 'lte'] as const;

function inputSchema(names: readonly string[]) {
  const [first, ...rest] = names;
  return z
    .object({
      task: (first === undefined ? z.string() : z.enum([first, ...rest])).describe('The upstream task to read.'),
      item: z.number().int().min(0).optional().describe('Only this item (its index).'),
      status: z.enum(['completed', 'failed', 'all']).optional().describe('Which items: completed (default), failed, or all.'),
      where: z
        .array(
          z
            .object({
              field: z.string().min(1).describe('A field of the output; a.b for a nested one.'),
              op: z.enum(OPS).optional().describe('eq (default), ne, contains, gt, gte, lt, lte; numbers compare as numbers.'),
              value: z.union([z.string(), z.number(), z.boolean()]).describe('The value to compare with.'),
            })
            .strict(),
        )
        .optional()
        .describe('Keep only the items whose output matches every condition (a missing field never matches).'),
      fields: z.array(z.string().min(1)).optional().describe('Return only these fields of each output.'),
      count: z.boolean().optional().describe('Return only how many items match.'),
      group_by: z.string().min(1).optional().describe('Return how many matching items have each value of this field.'),
      limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Items per page (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`),
      offset: z.number().int().min(0).optional().describe('Items to skip (for the next page).'),
    })
    .strict();
}

type QueryInput = z.infer<ReturnType<typeof inputSchema>>;

export function queryTaskOutputTool(source: QuerySource): SessionTool {
  const names = source.upstream.map((u) => u.name);
  const schema = inputSchema(names);
  return {
    ref: 'query_task_output',
    definition: {
      name: 'query_task_output',
      description:
        "Read the results of a completed upstream task. For an iterated task: its items' outputs, filtered (where), with chosen fields, a page at a time (limit, offset), or counted (count, group_by).",
      inputSchema: toolInputSchema(schema),
    },
    onInterrupted: 'rerun',
    async execute(call) {
      const raw = call.input;
      const input = typeof raw === 'object' && raw !== null ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null)) : raw;
      const parsed = schema.safeParse(input);
      if (!parsed.success) return error(`Invalid input for query_task_output: ${formatZodIssues(parsed.error)}`);
      const upstream = source.upstream.find((u) => u.name === parsed.data.task)!;
      if (upstream.items === undefined) return single(upstream, parsed.data);
      return ok(queryItems(await source.store.items.list(source.runId, upstream.name), parsed.data));
    },
  };
}

function single(upstream: UpstreamResult, q: QueryInput): ToolResult {
  if (q.item !== undefined || q.where !== undefined || q.group_by !== undefined || q.count !== undefined) {
    return error(`Task "${upstream.name}" ran once, not over items: item, where, count and group_by do not apply. Ask with {task} (and fields) alone.`);
  }
  const output = upstream.output === undefined ? null : q.fields ? pick(upstream.output, q.fields) : upstream.output;
  return ok({ task: upstream.name, status: 'completed', summary: upstream.summary, output });
}

export function queryItems(rows: readonly ItemRow[], q: Omit<QueryInput, 'task'>): Record<string, unknown> {
  const status = q.status ?? 'completed';
  let matching = rows.filter((r) => status === 'all' || r.status === status);
  if (q.item !== undefined) matching = matching.filter((r) => r.index === q.item);
  for (const cond of q.where ?? []) matching = matching.filter((r) => matches(field(r.output, cond.field), cond.op ?? 'eq', cond.value));
  if (q.count) return { matching: matching.length, of: rows.length };
  if (q.group_by !== undefined) {
    const groups = new Map<string, number>();
    for (const r of matching) {
      const v = field(r.output, q.group_by);
      const key = v === undefined ? '(missing)' : typeof v === 'string' ? v : JSON.stringify(v);
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
    return { matching: matching.length, group_by: q.group_by, counts: Object.fromEntries([...groups].sort((a, b) => b[1] - a[1])) };
  }
  const offset = q.offset ?? 0;
  const limit = q.limit ?? DEFAULT_LIMIT;
  const page = matching.slice(offset, offset + limit);
  const out: Record<string, unknown> = {
    matching: matching.length,
    offset,
    items: page.map((r) => ({
      index: r.index,
      status: r.status,
      ...(r.output !== undefined ? { output: q.fields ? pick(r.output, q.fields) : r.output } : {}),
      ...(q.fields === undefined && r.summary !== undefined ? { summary: r.summary } : {}),
      ...(r.error !== undefined ? { error: r.error } : {}),
    })),
  };
  if (offset + limit < matching.length) out['next_offset'] = offset + limit;
  return out;
}

function field(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function pick(value: unknown, fields: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(fields.flatMap((f) => (field(value, f) === undefined ? [] : [[f, field(value, f)]])));
}

function matches(actual: unknown, op: (typeof OPS)[number], expected: string | number | boolean): boolean {
  if (actual === undefined) return false;
  const a = Number(actual);
  const b = Number(expected);
  const numeric = typeof actual !== 'boolean' && typeof expected !== 'boolean' && actual !== '' && expected !== '' && Number.isFinite(a) && Number.isFinite(b) && (typeof actual === 'number' || typeof actual === 'string');
  const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
  const want = typeof expected === 'string' ? expected : JSON.stringify(expected);
  switch (op) {
    case 'eq':
      return numeric ? a === b : text === want;
    case 'ne':
      return numeric ? a !== b : text !== want;
    case 'contains':
      return Array.isArray(actual) ? actual.some((x) => (typeof x === 'string' ? x : JSON.stringify(x)) === want) : text.toLowerCase().includes(want.toLowerCase());
    case 'gt':
      return numeric ? a > b : text > want;
    case 'gte':
      return numeric ? a >= b : text >= want;
    case 'lt':
      return numeric ? a < b : text < want;
    case 'lte':
      return numeric ? a <= b : text <= want;
  }
}

function ok(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], isError: false };
}

function error(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
