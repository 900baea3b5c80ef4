// Field schemas for custom tool inputs and task outputs, in both forms: the shorthand
// `{ city = string("City name", true), tags = list(string, "Tags") }` (read syntactically, so each
// mistake is reported where it is written) and the verbose `field "city" { type, description, required }`.

import { isInvalidExpr, type Attribute, type Block, type Expression } from './hcl/ast.js';
import { diagnosticAt, type Diagnostic } from './hcl/diagnostic.js';
import type { FieldSchema, FieldType } from './graph.js';
import { decodeBody, NameRegistry, blockHeader, checkBlockName, type BlockSchema } from './schema.js';
import type { Scope } from './scope.js';
import { suggestionHint } from './suggest.js';
import { evaluateValue, objectKeyName, readBool, readEnum, readText, toBoolValue, toStringValue } from './values.js';

const SCALAR_HELPERS: Readonly<Record<string, FieldType>> = { string: 'string', number: 'number', integer: 'integer', bool: 'boolean' };
const HELPERS = ['string', 'number', 'integer', 'bool', 'list', 'map', 'object'];
/** Bare type words usable as the element type of list() and map(). */
const TYPE_WORDS: Readonly<Record<string, FieldType | undefined>> = { ...SCALAR_HELPERS, any: undefined, any_primitive: undefined };

function helperError(expr: Expression, message: string, diags: Diagnostic[], hint?: string): undefined {
  diags.push(diagnosticAt(expr.range, 'error', 'SCH017', message, hint));
  return undefined;
}

/** `{ name = helper(...) , … }` → fields in declaration order. */
export function parseShorthand(expr: Expression, scope: Scope, diags: Diagnostic[], what: string): FieldSchema[] | undefined {
  if (isInvalidExpr(expr)) return undefined; // its syntax error is already reported
  if (expr.kind !== 'Object') {
    return helperError(expr, `${what} must be an object of field schemas`, diags, 'write { name = string("what it is", true) }');
  }
  const out: FieldSchema[] = [];
  const seen = new Set<string>();
  for (const item of expr.items) {
    const name = objectKeyName(item.key);
    if (name === undefined) {
      helperError(item.key, 'a field name must be a plain name', diags);
      continue;
    }
    if (seen.has(name)) {
      diags.push(diagnosticAt(item.key.range, 'error', 'SCH008', `field "${name}" is declared twice in ${what}`));
      continue;
    }
    seen.add(name);
    const field = parseHelper(item.value, name, scope, diags, false);
    if (field !== undefined) out.push(field);
  }
  return out;
}

/** One helper call (or, as an element type, a bare type word). `undefined` element type = any. */
function parseHelper(expr: Expression, name: string, scope: Scope, diags: Diagnostic[], elementPosition: boolean): FieldSchema | undefined {
  if (elementPosition && expr.kind === 'ScopeTraversal' && expr.steps.length === 0 && expr.root in TYPE_WORDS) {
    const type = TYPE_WORDS[expr.root];
    return type === undefined ? undefined : { name, type, description: '', required: false };
  }
  if (expr.kind !== 'FunctionCall' || !HELPERS.includes(expr.name)) {
    const hint = elementPosition ? 'use string, number, integer, bool, any or a helper call such as object({ … })' : 'e.g. string("what it is", true) or list(string, "items")';
    const got = expr.kind === 'FunctionCall' ? `${expr.name}()` : 'a value';
    return helperError(expr, `field "${name}": expected a schema helper (string, number, integer, bool, list, map, object), got ${got}`, diags, hint);
  }
  const args = expr.args;
  const scalar = SCALAR_HELPERS[expr.name];
  let field: FieldSchema;
  let rest: Expression[];
  if (scalar !== undefined) {
    field = { name, type: scalar, description: '', required: false };
    rest = args;
  } else {
    const first = args[0];
    if (first === undefined) {
      const example = expr.name === 'object' ? 'object({ id = string("Id") }, "what it is")' : `${expr.name}(string, "what it is")`;
      return helperError(expr, `${expr.name}() needs its ${expr.name === 'object' ? 'properties' : 'element type'} first`, diags, `write ${example}`);
    }
    rest = args.slice(1);
    if (expr.name === 'object') {
      const properties = parseShorthand(first, scope, diags, `object field "${name}"`);
      if (properties === undefined) return undefined;
      field = { name, type: 'object', description: '', required: false, properties };
    } else {
      const isAny = first.kind === 'ScopeTraversal' && first.steps.length === 0 && (first.root === 'any' || first.root === 'any_primitive');
      const items = isAny ? undefined : parseHelper(first, '', scope, diags, true);
      if (items === undefined && !isAny) return undefined;
      field = { name, type: expr.name === 'list' ? 'array' : 'map', description: '', required: false };
      if (items !== undefined) field.items = items;
    }
  }
  if (rest.length > 2) return helperError(rest[2]!, `${expr.name}() takes at most ${args.length - rest.length + 2} arguments`, diags);
  const [descExpr, reqExpr] = rest;
  if (descExpr !== undefined) {
    const v = evaluateValue(descExpr, scope, diags);
    const d = v === undefined ? undefined : toStringValue(v, descExpr.range, diags);
    if (d !== undefined) field.description = d;
  }
  if (reqExpr !== undefined) {
    if (reqExpr.kind === 'Object') {
      for (const item of reqExpr.items) {
        const key = objectKeyName(item.key);
        if (key !== 'required') {
          helperError(item.key, `unknown option "${key ?? '?'}" in ${expr.name}()`, diags, key === undefined ? undefined : (suggestionHint(key, ['required']) ?? 'the only option here is required'));
          continue;
        }
        const v = evaluateValue(item.value, scope, diags);
        const b = v === undefined ? undefined : toBoolValue(v, item.value.range, diags);
        if (b !== undefined) field.required = b;
      }
    } else {
      const v = evaluateValue(reqExpr, scope, diags);
      const b = v === undefined ? undefined : toBoolValue(v, reqExpr.range, diags);
      if (b !== undefined) field.required = b;
    }
  }
  return field;
}

const VERBOSE_TYPES = ['string', 'number', 'integer', 'boolean', 'bool', 'array', 'list', 'object', 'map'] as const;
const VERBOSE_MAP: Readonly<Record<(typeof VERBOSE_TYPES)[number], FieldType>> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  bool: 'boolean',
  array: 'array',
  list: 'array',
  object: 'object',
  map: 'map',
};

const FIELD_SCHEMA: BlockSchema = { attributes: { type: { required: true }, description: {}, required: {} } };
export const FIELDS_BLOCK_SCHEMA: BlockSchema = { attributes: {}, blocks: { field: { labels: ['name'] } } };

/** `inputs { field "f" { … } }` / `output { field "f" { … } }` → fields in declaration order. */
export function parseFieldBlocks(container: Block, scope: Scope, diags: Diagnostic[], what: string): FieldSchema[] {
  const body = decodeBody(container.body, FIELDS_BLOCK_SCHEMA, { what, header: blockHeader(container) }, diags);
  const names = new NameRegistry('field');
  const out: FieldSchema[] = [];
  for (const block of body.blocks.get('field') ?? []) {
    const name = block.labels[0]!;
    checkBlockName(block, diags);
    if (!names.claim(name, block.labelRanges[0]!, diags)) continue;
    const f = decodeBody(block.body, FIELD_SCHEMA, { what: `field "${name}"`, header: blockHeader(block) }, diags);
    const type = readEnum(f.attrs.get('type'), VERBOSE_TYPES, scope, diags);
    if (type === undefined) continue;
    out.push({
      name,
      type: VERBOSE_MAP[type],
      description: readText(f.attrs.get('description'), scope, diags) ?? '',
      required: readBool(f.attrs.get('required'), scope, diags) ?? false,
    });
  }
  return out;
}

/** Reads a schema given either as `name = { … }` or as one `name { field … }` block, not both. */
export function readFieldSchema(
  attr: Attribute | undefined,
  blocks: readonly Block[] | undefined,
  scope: Scope,
  diags: Diagnostic[],
  what: string,
): FieldSchema[] | undefined {
  const block = blocks?.[0];
  if (attr !== undefined && block !== undefined) {
    diags.push(diagnosticAt(attr.nameRange, 'error', 'SCH012', `${what} is declared both as an attribute and as a block`, `keep one: ${attr.name} = { … } or ${attr.name} { field "…" { … } }`));
    return undefined;
  }
  if (attr !== undefined) return parseShorthand(attr.expr, scope, diags, `${what}`);
  if (block !== undefined) return parseFieldBlocks(block, scope, diags, what);
  return undefined;
}
