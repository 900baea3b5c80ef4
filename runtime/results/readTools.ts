// result_read and result_search: how a session reads back the results stored for it. A handle is
// readable by the session that received it, and by a commander an agent's answer passed it to; any
// other handle is unknown. Each answer is bounded by the session's limit for one tool result: a page
// that would not fit is cut, and says where to continue.

import { z } from 'zod';
import { re2 } from '../../config/hcl/stdlib-regex.js';
import type { StoredPayload } from '../../core/storedResults.js';
import type { SessionTool } from '../tools/toolbox.js';
import type { ToolResult } from '../tools/types.js';
import { describe, jsonShape, pathKey } from './jsonShape.js';
import { parsePath, walk } from './jsonPath.js';
import type { ResultScope } from './offload.js';
import { headBytes, readBudget } from './size.js';
import { groupDigits } from '../../core/digits.js';

export const RESULT_READ = 'result_read';
export const RESULT_SEARCH = 'result_search';

const HANDLE = z.string().regex(/^res_[0-9a-f]{16}$/, 'a handle looks like res_ and 16 hex digits').describe('A stored result handle (res_…).');

const ReadInput = z
  .object({
    handle: HANDLE,
    path: z.string().optional().describe('JSON only: the value to read, e.g. $.items or $.items[3].name (default $).'),
    offset: z.number().int().min(0).optional().describe('First array item, or first character of text (default 0).'),
    limit: z.number().int().min(1).optional().describe('At most this many items or characters (default: as many as fit).'),
    image: z.number().int().min(1).optional().describe('Return image n (1-based) instead.'),
  })
  .strict();

const SearchInput = z
  .object({
    handle: HANDLE,
    pattern: z.string().min(1).describe('A case-sensitive substring, or an RE2 regex when regex is true.'),
    regex: z.boolean().optional(),
    max_matches: z.number().int().min(1).max(500).optional().describe('Default 50.'),
  })
  .strict();

export function resultTools(scope: ResultScope): SessionTool[] {
  return [
    tool(RESULT_READ, 'Read part of a stored tool result: a page of a JSON array, the value at a JSON path, a range of text, or an image.', ReadInput, (input) => read(scope, input)),
    tool(RESULT_SEARCH, 'Search a stored tool result: matching lines of text (with their offsets), or matching JSON values (with their paths).', SearchInput, (input) => search(scope, input)),
  ];
}

// Their JSON schemas never change: converted once, on first use, not for every session.
const jsonSchemas = new Map<z.ZodObject, Record<string, unknown>>();

function tool<S extends z.ZodObject>(name: string, description: string, schema: S, run: (input: z.infer<S>) => Promise<ToolResult>): SessionTool {
  let inputSchema = jsonSchemas.get(schema);
  if (!inputSchema) {
    inputSchema = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    delete inputSchema['$schema'];
    jsonSchemas.set(schema, inputSchema);
  }
  return {
    ref: name,
    definition: { name, description, inputSchema },
    onInterrupted: 'rerun',
    async execute(call) {
      const input = call.input !== null && typeof call.input === 'object' ? Object.fromEntries(Object.entries(call.input).filter(([, v]) => v !== null)) : call.input;
      const parsed = schema.safeParse(input);
      if (!parsed.success) return error(`Invalid input for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
      return run(parsed.data);
    },
  };
}

async function load(scope: ResultScope, handle: string): Promise<StoredPayload | ToolResult> {
  const stored = await scope.store.storedResults.read(scope.sessionId, handle);
  if (stored === undefined) return error(`There is no stored result ${handle} for you: use a handle from one of your own tool results.`);
  return stored.payload;
}

async function read(scope: ResultScope, input: z.infer<typeof ReadInput>): Promise<ToolResult> {
  const payload = await load(scope, input.handle);
  if ('content' in payload) return payload;
  const budget = readBudget(scope.maxTokens);
  if (input.image !== undefined) {
    const image = payload.images[input.image - 1];
    if (!image) return error(`${input.handle} has ${payload.images.length} image${payload.images.length === 1 ? '' : 's'}.`);
    return { content: [{ type: 'image', mediaType: image.mediaType, data: image.data }], isError: false };
  }
  if (payload.format === 'text') {
    if (input.path !== undefined && input.path.trim() !== '$') return error(`${input.handle} is text, not JSON: read it by offset and limit.`);
    return ok(textPage(payload.text, input.offset ?? 0, input.limit, budget));
  }
  const path = parsePath(input.path ?? '$');
  if ('error' in path) return error(path.error);
  const found = walk(JSON.parse(payload.text) as unknown, path.steps);
  if ('error' in found) return error(found.error);
  const value = found.value;
  const where = input.path ?? '$';
  if (typeof value === 'string') return ok(`${where} is a string of ${groupDigits(value.length)} characters.\n${textPage(value, input.offset ?? 0, input.limit, budget)}`);
  if (Array.isArray(value)) return ok(arrayPage(value, where, input.offset ?? 0, input.limit, budget));
  const whole = JSON.stringify(value, null, 1);
  if (Buffer.byteLength(whole, 'utf8') <= budget) return ok(whole);
  return ok(`${where} is an ${describe(value)}; too large to show whole. Its shape:\n${jsonShape(value, Math.floor(budget / 2))}\nRead a part with a longer path, like ${where}${pathKey(Object.keys(value as object)[0] ?? 'key')}.`);
}

function textPage(text: string, offset: number, limit: number | undefined, budget: number): string {
  if (offset >= text.length) return `(offset ${groupDigits(offset)} is at or past the end: the text has ${groupDigits(text.length)} characters)`;
  const wanted = text.slice(offset, limit === undefined ? undefined : offset + limit);
  const page = headBytes(wanted, budget - 200);
  const end = offset + page.length;
  const line = countTo(text, offset);
  const more = end < text.length ? ` Continue with offset ${end}.` : ' This is the end of the text.';
  return `Characters ${groupDigits(offset)}–${groupDigits(end)} of ${groupDigits(text.length)} (from line ${groupDigits(line)}).${more}\n${page}`;
}

function arrayPage(items: readonly unknown[], where: string, offset: number, limit: number | undefined, budget: number): string {
  if (offset >= items.length && items.length > 0) return `(offset ${offset} is past the end: ${where} has ${groupDigits(items.length)} items)`;
  const out: string[] = [];
  let used = 200;
  let i = offset;
  const last = Math.min(items.length, limit === undefined ? items.length : offset + limit);
  for (; i < last; i++) {
    const text = JSON.stringify(items[i]) ?? 'null';
    const size = Buffer.byteLength(text, 'utf8') + 2;
    if (used + size > budget) {
      if (out.length === 0) {
        out.push(JSON.stringify(`item ${i} alone is too large to show (${groupDigits(size)} bytes): read ${where}[${i}] with a longer path`));
        i++;
      }
      break;
    }
    out.push(text);
    used += size;
  }
  const more = i < items.length ? ` Continue with offset ${i}.` : ' This is the last page.';
  return `Items ${groupDigits(offset)}–${groupDigits(Math.max(offset, i - 1))} of ${groupDigits(items.length)} in ${where}.${more}\n[${out.join(',\n')}]`;
}

async function search(scope: ResultScope, input: z.infer<typeof SearchInput>): Promise<ToolResult> {
  const payload = await load(scope, input.handle);
  if ('content' in payload) return payload;
  let test: (s: string) => boolean;
  if (input.regex) {
    try {
      const re = re2().compile(input.pattern);
      test = (s) => re.test(s);
    } catch (err) {
      return error(`Invalid regular expression: ${err instanceof Error ? err.message : String(err)}`);
    }
  } else test = (s) => s.includes(input.pattern);
  const max = input.max_matches ?? 50;
  const budget = readBudget(scope.maxTokens) - 300;
  const matches: string[] = [];
  let used = 0;
  let total = 0;
  const add = (line: string): void => {
    total++;
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (matches.length < max && used + size <= budget) {
      matches.push(line);
      used += size;
    }
  };
  if (payload.format === 'json') {
    leaves(JSON.parse(payload.text) as unknown, '$', (path, key, value) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if ((key !== '' && test(key)) || test(text)) add(`${path} = ${clip(JSON.stringify(value) ?? 'null', 200)}`);
    });
  } else {
    let offset = 0;
    payload.text.split('\n').forEach((line, i) => {
      if (test(line)) add(`line ${i + 1}, offset ${offset}: ${clip(line, 200)}`);
      offset += line.length + 1;
    });
  }
  if (total === 0) return ok(`No match for ${JSON.stringify(input.pattern)} in ${input.handle}.`);
  const shown = matches.length < total ? ` (${groupDigits(matches.length)} shown)` : '';
  return ok(`${groupDigits(total)} match${total === 1 ? '' : 'es'}${shown} in ${input.handle}:\n${matches.join('\n')}`);
}

/** Calls `visit` for every scalar, in document order, with its path and key. */
function leaves(value: unknown, path: string, visit: (path: string, key: string, value: unknown) => void, key = ''): void {
  // An array index is not a key: searching "1" should not match every second element.
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`, visit));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, `${path}${pathKey(k)}`, visit, k);
  else visit(path, key, value);
}

function countTo(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function ok(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: false };
}

function error(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
