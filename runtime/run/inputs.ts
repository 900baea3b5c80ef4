// Converts `-i key=value` flags into typed mission inputs: each declared input takes the given value
// (converted by its type), else its default; a missing required input or an undeclared key is an
// error that names the input and what was expected.

import { jsonTooDeep, tooDeepMessage } from '../../core/jsonDepth.js';
import type { Mission, MissionGraph, MissionInput } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import { resolve } from 'node:path';
import { readTextFile } from '../../config/textFile.js';
import { firstInexactJsonNumber, isDecimalText, isExactNumber } from './exactNumber.js';

export type InputResult = { ok: true; inputs: Record<string, Value> } | { ok: false; errors: string[] };

/**
 * With `placeholders`, a missing required input becomes the text `<inputs.name>` instead of an error
 * (`plan` shows what a run would do before the caller has decided every input).
 */
/**
 * For `plan`: every variable without a value reads as the text `<vars.name>`, as a missing input
 * reads `<inputs.name>`, so prompts can be shown without the secrets (no model is called). A secret
 * reads so too even when it has a value: plan's output lands in terminals and CI logs.
 */
export function withVariablePlaceholders(graph: MissionGraph): MissionGraph {
  const hidden = (v: MissionGraph['variables'][number]): boolean => v.value === undefined || v.secret;
  if (!graph.variables.some(hidden)) return graph;
  return { ...graph, variables: graph.variables.map((v) => (hidden(v) ? { ...v, value: `<vars.${v.name}>` } : v)) };
}

export function resolveInputs(mission: Mission, given: Readonly<Record<string, string>>, opts: { placeholders?: boolean } = {}): InputResult {
  const errors: string[] = [];
  const inputs: Record<string, Value> = {};
  const declared = new Map(mission.inputs.map((i) => [i.name, i]));
  for (const key of Object.keys(given)) {
    if (!declared.has(key)) {
      const names = mission.inputs.map((i) => i.name);
      errors.push(`mission "${mission.name}" has no input "${key}"${names.length > 0 ? ` (inputs: ${names.join(', ')})` : ' (it declares no inputs)'}`);
    }
  }
  for (const input of mission.inputs) {
    const raw = given[input.name];
    if (raw === undefined) {
      if (input.default !== undefined) inputs[input.name] = input.default;
      else if (input.required && opts.placeholders) inputs[input.name] = `<inputs.${input.name}>`;
      else if (input.required) errors.push(`input "${input.name}" (${input.type}) is required: pass -i ${input.name}=…`);
      else inputs[input.name] = null;
      continue;
    }
    const converted = convert(input, raw);
    if ('error' in converted) errors.push(converted.error);
    else inputs[input.name] = converted.value;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, inputs };
}

function convert(input: MissionInput, raw: string): { value: Value } | { error: string } {
  const fail = (expected: string) => ({ error: `input "${input.name}" expects ${expected}, got "${raw}"` });
  switch (input.type) {
    case 'string':
      return { value: raw };
    case 'number': {
      const n = Number(raw);
      if (!isDecimalText(raw) || !Number.isFinite(n)) return fail('a number');
      return isExactNumber(raw, n) ? { value: n } : inexact(input, raw, n);
    }
    case 'integer': {
      const n = Number(raw);
      if (!isDecimalText(raw) || !Number.isInteger(n)) return fail('a whole number');
      return isExactNumber(raw, n) ? { value: n } : inexact(input, raw, n);
    }
    case 'bool':
      if (raw === 'true') return { value: true };
      if (raw === 'false') return { value: false };
      return fail('true or false');
    case 'list':
    case 'map':
    case 'object': {
      // `@path`: the JSON (or, for a list, JSON Lines) is read from a file; no JSON text starts with @.
      const fromFile = raw.startsWith('@') ? readInputFile(input, raw.slice(1)) : undefined;
      if (fromFile !== undefined && 'error' in fromFile) return fromFile;
      const text = fromFile?.text ?? raw;
      let parsed: unknown;
      try {
        parsed = fromFile?.lines === true ? parseJsonLines(text) : JSON.parse(text);
      } catch (err) {
        if (fromFile !== undefined) return { error: `input "${input.name}": ${raw.slice(1)} is not ${fromFile.lines ? 'JSON Lines' : 'JSON'}: ${(err as Error).message}` };
        return fail(input.type === 'list' ? 'a JSON array' : 'a JSON object');
      }
      if (jsonTooDeep(parsed)) return { error: `input "${input.name}": ${tooDeepMessage('the value')}` };
      if (fromFile !== undefined && (input.type === 'list' ? !Array.isArray(parsed) : typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
        return { error: `input "${input.name}" expects ${input.type === 'list' ? 'a JSON array (or JSON Lines)' : 'a JSON object'}, but ${raw.slice(1)} holds ${describeJson(parsed)}` };
      }
      if (input.type === 'list' ? !Array.isArray(parsed) : typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return fail(input.type === 'list' ? 'a JSON array' : 'a JSON object');
      }
      const lossy = firstInexactJsonNumber(text);
      if (lossy !== undefined) return inexact(input, lossy, Number(lossy));
      return { value: parsed as Value };
    }
  }
}

/** Numbers are float64: one whose digits do not fit is refused, never silently rounded. */
function inexact(input: MissionInput, given: string, n: number): { error: string } {
  // The value the number would really have: 1e+23 is 99999999999999991611392.
  const becomes = Number.isInteger(n) ? BigInt(n).toString() : String(n);
  return {
    error: `input "${input.name}": the number ${given.trim()} cannot be held exactly (it would become ${becomes}); numbers keep about 15 significant digits; declare the input with type = "string" to keep every digit`,
  };
}

/** Files given as `-i name=@path` are read whole; beyond this they are refused, not half-read. */
export const MAX_INPUT_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Reads `-i name=@path` (relative to the working directory). A list input takes JSON Lines from a
 * `.jsonl` / `.ndjson` file (one item a line, blank lines skipped), JSON otherwise.
 */
function readInputFile(input: MissionInput, path: string): { text: string; lines: boolean } | { error: string } {
  if (path === '') return { error: `input "${input.name}": "@" must be followed by a file path, e.g. -i ${input.name}=@${input.name}.json` };
  const file = readTextFile(resolve(path), MAX_INPUT_FILE_BYTES);
  if (!file.ok) return { error: `input "${input.name}": the file ${path} ${file.message}` };
  return { text: file.text.replace(/^\uFEFF/, ''), lines: input.type === 'list' && /\.(jsonl|ndjson)$/i.test(path) };
}

function parseJsonLines(text: string): unknown[] {
  const items: unknown[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      items.push(JSON.parse(line));
    } catch (err) {
      throw new Error(`line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return items;
}

function describeJson(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
