// Validates a tool input (as produced by a model) against the tool's JSON schema, for the subset of
// JSON Schema that real tool schemas use. Errors name the path (`input.body: expected object or
// string`) so the model can correct its call. Unknown keywords are ignored (lenient by design: a
// keyword we do not understand must never reject a valid call). `pattern` runs in bounded time
// (schemaPattern.ts): a schema from an untrusted server cannot hang the process.

import type { JsonSchema } from '../providers/types.js';
import type { ToolResult } from './types.js';
import { textResult } from './types.js';
import { canonicalJson } from '../../core/canonicalJson.js';
import { compileSchemaPattern } from './schemaPattern.js';

export type ValidationResult = { ok: true; value: unknown } | { ok: false; errors: string[] };

/** More errors than this are summarised: a model needs the first few, not a wall of text. */
const MAX_ERRORS = 20;
/** Guards against `$ref` cycles in server-supplied schemas. */
const MAX_DEPTH = 64;

type Schema = JsonSchema | boolean;

interface Walk {
  root: JsonSchema;
  errors: string[];
  depth: number;
}

export function validateToolInput(schema: JsonSchema, input: unknown): ValidationResult {
  const walk: Walk = { root: schema, errors: [], depth: 0 };
  check(schema, input, 'input', walk);
  if (walk.errors.length === 0) return { ok: true, value: input };
  const errors = walk.errors.slice(0, MAX_ERRORS);
  if (walk.errors.length > MAX_ERRORS) errors.push(`… and ${walk.errors.length - MAX_ERRORS} more errors`);
  return { ok: false, errors };
}

/** The one wording of a schema mismatch, shared by every tool source. */
export function invalidInputResult(apiName: string, errors: string[]): ToolResult {
  return textResult(`Invalid input for ${apiName}:\n${errors.map((e) => `- ${e}`).join('\n')}`, true);
}

/** Type name of a JSON value as JSON Schema sees it (`integer` is reported as `number`'s subtype). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return true; // an unknown type name constrains nothing
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function declaredTypes(schema: JsonSchema): string[] | undefined {
  const t = schema['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return undefined;
}

/** Joins a path and a property name: `input.url`, `input["content-type"]`. */
function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function describe(value: unknown): string {
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function check(schema: Schema, value: unknown, path: string, walk: Walk): void {
  if (schema === true) return;
  if (schema === false) {
    walk.errors.push(`${path}: no value is allowed here`);
    return;
  }
  if (!isPlainObject(schema)) return;
  if (walk.depth > MAX_DEPTH) return;
  walk.depth++;
  try {
    checkObjectSchema(schema, value, path, walk);
  } finally {
    walk.depth--;
  }
}

function checkObjectSchema(schema: JsonSchema, value: unknown, path: string, walk: Walk): void {
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = resolveLocalRef(walk.root, ref);
    if (target !== undefined) check(target, value, path, walk);
  }

  if (value === null && schema['nullable'] === true) return; // OpenAPI-style nullable

  const types = declaredTypes(schema);
  if (types && types.length > 0 && !types.some((t) => matchesType(t, value))) {
    walk.errors.push(`${path}: expected ${types.join(' or ')}, got ${jsonTypeOf(value)}`);
    return; // the other keywords would only repeat the same mistake
  }

  if ('const' in schema && !deepEqual(schema['const'], value)) {
    walk.errors.push(`${path}: must equal ${describe(schema['const'])}`);
  }
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((a) => deepEqual(a, value))) {
    walk.errors.push(`${path}: must be one of ${allowed.map(describe).join(', ')}, got ${describe(value)}`);
  }

  if (typeof value === 'number') checkNumber(schema, value, path, walk);
  else if (typeof value === 'string') checkString(schema, value, path, walk);
  else if (Array.isArray(value)) checkArray(schema, value, path, walk);
  else if (isPlainObject(value)) checkObject(schema, value, path, walk);

  checkCombinators(schema, value, path, walk);
}

function checkNumber(schema: JsonSchema, value: number, path: string, walk: Walk): void {
  const num = (k: string): number | undefined => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const min = num('minimum');
  const max = num('maximum');
  // Draft 4 spelled exclusivity as booleans next to minimum/maximum; later drafts as numbers.
  const exMin = schema['exclusiveMinimum'] === true ? min : num('exclusiveMinimum');
  const exMax = schema['exclusiveMaximum'] === true ? max : num('exclusiveMaximum');
  if (exMin !== undefined && !(value > exMin)) walk.errors.push(`${path}: must be > ${exMin}, got ${value}`);
  else if (min !== undefined && schema['exclusiveMinimum'] !== true && value < min) {
    walk.errors.push(`${path}: must be >= ${min}, got ${value}`);
  }
  if (exMax !== undefined && !(value < exMax)) walk.errors.push(`${path}: must be < ${exMax}, got ${value}`);
  else if (max !== undefined && schema['exclusiveMaximum'] !== true && value > max) {
    walk.errors.push(`${path}: must be <= ${max}, got ${value}`);
  }
  const multipleOf = num('multipleOf');
  if (multipleOf !== undefined && multipleOf > 0) {
    const q = value / multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9) walk.errors.push(`${path}: must be a multiple of ${multipleOf}`);
  }
}

function checkString(schema: JsonSchema, value: string, path: string, walk: Walk): void {
  const length = [...value].length; // code points, as JSON Schema counts them
  const minLength = schema['minLength'];
  const maxLength = schema['maxLength'];
  if (typeof minLength === 'number' && length < minLength) {
    walk.errors.push(`${path}: must be at least ${minLength} characters long, got ${length}`);
  }
  if (typeof maxLength === 'number' && length > maxLength) {
    walk.errors.push(`${path}: must be at most ${maxLength} characters long, got ${length}`);
  }
  const pattern = schema['pattern'];
  if (typeof pattern === 'string') {
    const test = compileSchemaPattern(pattern);
    if (test !== undefined && !test(value)) walk.errors.push(`${path}: must match the pattern /${pattern}/`);
  }
}

function checkArray(schema: JsonSchema, value: unknown[], path: string, walk: Walk): void {
  const minItems = schema['minItems'];
  const maxItems = schema['maxItems'];
  if (typeof minItems === 'number' && value.length < minItems) {
    walk.errors.push(`${path}: must have at least ${minItems} items, got ${value.length}`);
  }
  if (typeof maxItems === 'number' && value.length > maxItems) {
    walk.errors.push(`${path}: must have at most ${maxItems} items, got ${value.length}`);
  }
  const prefix = Array.isArray(schema['prefixItems']) ? (schema['prefixItems'] as Schema[]) : undefined;
  const items = schema['items'];
  // Draft 7 tuples are `items: [..]` + `additionalItems`; 2020-12 tuples are `prefixItems` + `items`.
  const tuple = prefix ?? (Array.isArray(items) ? (items as Schema[]) : undefined);
  const rest: unknown = prefix ? items : Array.isArray(items) ? schema['additionalItems'] : items;
  value.forEach((item, i) => {
    const itemSchema = tuple && i < tuple.length ? tuple[i] : rest;
    if (itemSchema !== undefined && (typeof itemSchema === 'boolean' || isPlainObject(itemSchema))) {
      check(itemSchema as Schema, item, `${path}[${i}]`, walk);
    }
  });
  if (schema['uniqueItems'] === true) {
    const seen = new Set<string>();
    for (const item of value) {
      const key = canonicalJson(item);
      if (seen.has(key)) {
        walk.errors.push(`${path}: items must be unique (${describe(item)} appears more than once)`);
        break;
      }
      seen.add(key);
    }
  }
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, path: string, walk: Walk): void {
  const properties = isPlainObject(schema['properties']) ? (schema['properties'] as Record<string, Schema>) : {};
  const required = Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : [];
  for (const name of required) {
    if (!(name in value) || value[name] === undefined) walk.errors.push(`${path}: missing required property "${name}"`);
  }
  const patternProps = isPlainObject(schema['patternProperties'])
    ? Object.entries(schema['patternProperties'] as Record<string, Schema>).flatMap(([p, s]) => {
        const test = compileSchemaPattern(p);
        return test !== undefined ? [{ test, schema: s }] : [];
      })
    : [];
  const additional = schema['additionalProperties'];
  const unexpected: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    let known = false;
    if (Object.hasOwn(properties, key)) {
      known = true;
      check(properties[key] as Schema, v, childPath(path, key), walk);
    }
    for (const pp of patternProps) {
      if (pp.test(key)) {
        known = true;
        check(pp.schema, v, childPath(path, key), walk);
      }
    }
    if (known) continue;
    if (additional === false) unexpected.push(key);
    else if (isPlainObject(additional)) check(additional, v, childPath(path, key), walk);
  }
  if (unexpected.length > 0) {
    const allowedNames = Object.keys(properties);
    const list = unexpected.map((k) => `"${k}"`).join(', ');
    const hint = allowedNames.length > 0 ? ` (allowed: ${allowedNames.join(', ')})` : ' (no properties are allowed)';
    walk.errors.push(`${path}: unexpected ${unexpected.length === 1 ? 'property' : 'properties'} ${list}${hint}`);
  }
  const count = Object.values(value).filter((v) => v !== undefined).length;
  const minP = schema['minProperties'];
  const maxP = schema['maxProperties'];
  if (typeof minP === 'number' && count < minP) walk.errors.push(`${path}: must have at least ${minP} properties`);
  if (typeof maxP === 'number' && count > maxP) walk.errors.push(`${path}: must have at most ${maxP} properties`);
}

function checkCombinators(schema: JsonSchema, value: unknown, path: string, walk: Walk): void {
  const allOf = schemaList(schema['allOf']);
  for (const sub of allOf) check(sub, value, path, walk);

  const anyOf = schemaList(schema['anyOf']);
  if (anyOf.length > 0) {
    const outcomes = anyOf.map((sub) => trial(sub, value, path, walk));
    if (!outcomes.some((errs) => errs.length === 0)) walk.errors.push(...explainNoMatch(anyOf, outcomes, value, path));
  }

  const oneOf = schemaList(schema['oneOf']);
  if (oneOf.length > 0) {
    const outcomes = oneOf.map((sub) => trial(sub, value, path, walk));
    const matches = outcomes.filter((errs) => errs.length === 0).length;
    if (matches === 0) walk.errors.push(...explainNoMatch(oneOf, outcomes, value, path));
    else if (matches > 1) walk.errors.push(`${path}: matches more than one of the allowed alternatives (${matches})`);
  }

  const not = schema['not'];
  if (not !== undefined && (typeof not === 'boolean' || isPlainObject(not)) && trial(not, value, path, walk).length === 0) {
    walk.errors.push(`${path}: must not match the excluded schema`);
  }
}

/** Validates against a sub-schema without reporting, returning that branch's errors. */
function trial(schema: Schema, value: unknown, path: string, walk: Walk): string[] {
  const sub: Walk = { root: walk.root, errors: [], depth: walk.depth };
  check(schema, value, path, sub);
  return sub.errors;
}

/**
 * When no alternative matches: if the value's type fits none of them, say which types would
 * (`expected object or string`); otherwise report why the type-compatible alternatives failed.
 */
function explainNoMatch(alternatives: Schema[], outcomes: string[][], value: unknown, path: string): string[] {
  const typed = alternatives.map((a) => (typeof a === 'object' ? declaredTypes(a) : undefined));
  if (typed.every((t) => t !== undefined)) {
    const fitting = outcomes.filter((_, i) => typed[i]!.some((t) => matchesType(t, value)));
    if (fitting.length === 0) {
      const names = [...new Set(typed.flatMap((t) => t!))];
      return [`${path}: expected ${names.join(' or ')}, got ${jsonTypeOf(value)}`];
    }
    if (fitting.length === 1) return fitting[0]!;
    return [`${path}: does not match any of the allowed alternatives: ${fitting.map((e) => e.join('; ')).join(' | ')}`];
  }
  return [`${path}: does not match any of the allowed alternatives: ${outcomes.map((e) => e.join('; ')).join(' | ')}`];
}

function schemaList(v: unknown): Schema[] {
  return Array.isArray(v) ? v.filter((s): s is Schema => typeof s === 'boolean' || isPlainObject(s)) : [];
}

/** Only document-local refs (`#/$defs/x`, `#/definitions/x`, `#`); remote refs are ignored. */
function resolveLocalRef(root: JsonSchema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  const pointer = ref.slice(1);
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  for (const raw of pointer.slice(1).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'boolean' || isPlainObject(node) ? (node as Schema) : undefined;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
