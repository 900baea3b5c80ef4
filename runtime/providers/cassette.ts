// The cassette format (JSONL, one model turn per line) shared by the recorder and the replayer:
// the zod schema a line must satisfy, the canonical request projection that is compared, and the
// search for the first difference between two canonical values, named by path.

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ModelRequest, ModelResponse, RequestTrace } from './types.js';
import { canonicalJson } from '../../core/canonicalJson.js';

export const CASSETTE_VERSION = 1;

const textPart = z.object({ type: z.literal('text'), text: z.string(), thoughtSignature: z.string().optional(), itemId: z.string().optional() });
const thinkingPart = z.object({
  type: z.literal('thinking'),
  text: z.string(),
  signature: z.string().optional(),
  redactedData: z.string().optional(),
  thoughtSignature: z.string().optional(),
  reasoningItem: z.record(z.string(), z.unknown()).optional(),
});
const toolUsePart = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  malformedInput: z.string().optional(),
  thoughtSignature: z.string().optional(),
  itemId: z.string().optional(),
});
const resultContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mediaType: z.string(), data: z.string() }),
]);
const toolResultPart = z.object({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.array(resultContent),
  isError: z.boolean(),
});
const imagePart = z.object({ type: z.literal('image'), mediaType: z.string(), data: z.string() });
const part = z.discriminatedUnion('type', [textPart, thinkingPart, toolUsePart, toolResultPart, imagePart]);

const usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  reasoningTokens: z.number().optional(),
});

const traceSchema = z.object({ task: z.string(), agent: z.string(), turn: z.number().int().positive() });

const requestSchema = z.object({
  model: z.string(),
  system: z.string(),
  tools: z.array(z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()), strict: z.boolean().optional() })),
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), parts: z.array(part) })),
});

const responseSchema = z.object({
  message: z.object({ role: z.literal('assistant'), parts: z.array(part) }),
  stopReason: z.enum(['end_turn', 'tool_use', 'max_tokens', 'refusal', 'other']),
  usage,
  model: z.string(),
});

const entrySchema = z.object({
  v: z.literal(CASSETTE_VERSION),
  trace: traceSchema,
  request: requestSchema.optional(),
  response: responseSchema,
});

/** What a cassette stores of a request, and what replay compares. */
export type CanonicalRequest = Pick<ModelRequest, 'model' | 'system' | 'tools' | 'messages'>;

export interface CassetteEntry {
  v: typeof CASSETTE_VERSION;
  trace: RequestTrace;
  request?: CanonicalRequest;
  response: ModelResponse;
  /** 1-based line in the file (not serialized). */
  line: number;
}

export class CassetteFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CassetteFormatError';
  }
}

export function canonicalRequest(request: ModelRequest): CanonicalRequest {
  return { model: request.model, system: request.system, tools: request.tools, messages: request.messages };
}

export function traceLabel(trace: RequestTrace): string {
  return `${trace.task}/${trace.agent} turn ${trace.turn}`;
}

/** Reads and validates every line; throws CassetteFormatError naming `file:line` and the bad field. */
export function readCassette(file: string): CassetteEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CassetteFormatError(`cannot read cassette ${file}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  const entries: CassetteEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const where = `${file}:${index + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new CassetteFormatError(`cassette ${where} is not valid JSON`);
    }
    const parsed = entrySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue ? formatPath(issue.path.filter((k): k is string | number => typeof k !== 'symbol')) : '';
      const detail = `${path ? `${path}: ` : ''}${issue?.message ?? 'invalid'}`;
      throw new CassetteFormatError(`cassette ${where} is not a valid entry: ${detail}`);
    }
    entries.push({ ...(parsed.data as Omit<CassetteEntry, 'line'>), line: index + 1 });
  });
  return entries;
}

/**
 * What the recorder and the player need of the secret redactor (store/redact.ts): secrets out of
 * what is written and compared, and back into recorded responses (from the current values).
 */
export interface CassetteRedactor {
  redactValue<T>(value: T): T;
  restoreValue<T>(value: T): T;
}

/** One serialized cassette line (no trailing newline), keys in a fixed order, every string redacted. */
export function serializeEntry(trace: RequestTrace, request: ModelRequest, response: ModelResponse, redactor?: Pick<CassetteRedactor, 'redactValue'>): string {
  const { task, agent, turn } = trace;
  const { message, stopReason, usage, model } = response;
  const entry = { v: CASSETTE_VERSION, trace: { task, agent, turn }, request: canonicalRequest(request), response: { message, stopReason, usage, model } };
  return JSON.stringify(redactor ? redactor.redactValue(entry) : entry);
}

export interface Difference {
  path: string;
  /** The same path as keys, for callers that classify it. */
  keys: (string | number)[];
  expected: string;
  got: string;
}

/** The first place where two JSON-like values differ (object keys compared in sorted order). */
export function firstDifference(expected: unknown, actual: unknown): Difference | undefined {
  return diff(toJsonValue(expected), toJsonValue(actual), []);
}

function diff(expected: unknown, actual: unknown, path: (string | number)[]): Difference | undefined {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const shared = Math.min(expected.length, actual.length);
    for (let i = 0; i < shared; i++) {
      const found = diff(expected[i], actual[i], [...path, i]);
      if (found) return found;
    }
    if (expected.length !== actual.length) {
      const i = shared;
      const at = (list: unknown[]): string => (i < list.length ? render(list[i]) : '(nothing)');
      return difference([...path, i], at(expected), at(actual));
    }
    return undefined;
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const key of keys) {
      if (!(key in actual)) return difference([...path, key], render(expected[key]), '(missing)');
      if (!(key in expected)) return difference([...path, key], '(missing)', render(actual[key]));
      const found = diff(expected[key], actual[key], [...path, key]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof expected === 'string' && typeof actual === 'string') {
    return expected === actual ? undefined : { path: formatPath(path), keys: path, ...renderStringPair(expected, actual) };
  }
  if (expected === actual) return undefined;
  return difference(path, render(expected), render(actual));
}

function difference(path: (string | number)[], expected: string, got: string): Difference {
  return { path: formatPath(path), keys: path, expected, got };
}

/** `messages[2].parts[0].text`; the root is `(root)`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += /^[A-Za-z_$][\w$]*$/.test(key) ? (out === '' ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
  }
  return out === '' ? '(root)' : out;
}

const WINDOW = 60;

/** Both strings shown around their first differing character, so long prompts stay readable. */
function renderStringPair(expected: string, actual: string): { expected: string; got: string } {
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  const start = Math.max(0, i - 20);
  const cut = (s: string): string => {
    const body = s.slice(start, start + WINDOW);
    return `${start > 0 ? '…' : ''}${JSON.stringify(body).slice(1, -1)}${start + WINDOW < s.length ? '…' : ''}`;
  };
  return { expected: `"${cut(expected)}"`, got: `"${cut(actual)}"` };
}

function render(value: unknown): string {
  const text = value === undefined ? '(missing)' : canonicalJson(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** JSON with object keys sorted at every level: the form in which requests are compared. */

function toJsonValue(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
