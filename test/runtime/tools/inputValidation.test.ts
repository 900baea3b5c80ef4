import { describe, expect, it } from 'vitest';

import { BUILTIN_TOOLS } from '../../../config/builtinTools.js';
import { validateToolInput } from '../../../runtime/tools/inputValidation.js';

function errorsOf(schema: Record<string, unknown>, input: unknown): string[] {
  const r = validateToolInput(schema, input);
  return r.ok ? [] : r.errors;
}

const postSchema = BUILTIN_TOOLS.find((t) => t.ref === 'builtins.http.post')!.inputSchema;
const sleepSchema = BUILTIN_TOOLS.find((t) => t.ref === 'builtins.utils.sleep')!.inputSchema;

describe('validateToolInput', () => {
  it('accepts a valid input and returns it unchanged', () => {
    const input = { url: 'https://example.com', body: { a: 1 }, content_type: 'json', headers: { x: 'y' } };
    const r = validateToolInput(postSchema, input);
    expect(r).toEqual({ ok: true, value: input });
  });

  it('names the path and the allowed types when no anyOf branch has the right type', () => {
    expect(errorsOf(postSchema, { url: 'https://x', body: 42 })).toEqual(['input.body: expected object or string, got integer']);
  });

  it('reports a missing required property', () => {
    expect(errorsOf(postSchema, {})).toEqual(['input: missing required property "url"']);
  });

  it('rejects unexpected properties and lists the allowed ones', () => {
    expect(errorsOf(postSchema, { url: 'https://x', uri: 'y' })).toEqual([
      'input: unexpected property "uri" (allowed: url, body, content_type, headers)',
    ]);
  });

  it('checks additionalProperties given as a schema', () => {
    expect(errorsOf(postSchema, { url: 'https://x', headers: { a: 'ok', b: 3 } })).toEqual(['input.headers.b: expected string, got integer']);
  });

  it('checks enums and quotes the allowed values', () => {
    expect(errorsOf(postSchema, { url: 'u', content_type: 'xml' })).toEqual([
      'input.content_type: must be one of "json", "form", "text", got "xml"',
    ]);
  });

  it('rejects a non-object input for an object schema', () => {
    expect(errorsOf(postSchema, 'https://x')).toEqual(['input: expected object, got string']);
    expect(errorsOf(postSchema, null)).toEqual(['input: expected object, got null']);
  });

  it('applies exclusiveMinimum and maximum', () => {
    expect(errorsOf(sleepSchema, { seconds: 0 })).toEqual(['input.seconds: must be > 0, got 0']);
    expect(errorsOf(sleepSchema, { seconds: 61 })).toEqual(['input.seconds: must be <= 60, got 61']);
    expect(errorsOf(sleepSchema, { seconds: 0.5 })).toEqual([]);
  });

  it('supports draft-4 boolean exclusive bounds', () => {
    const schema = { type: 'number', minimum: 1, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true };
    expect(errorsOf(schema, 1)).toEqual(['input: must be > 1, got 1']);
    expect(errorsOf(schema, 5)).toEqual(['input: must be < 5, got 5']);
    expect(errorsOf(schema, 3)).toEqual([]);
  });

  it('distinguishes integer from number', () => {
    expect(errorsOf({ type: 'integer' }, 1.5)).toEqual(['input: expected integer, got number']);
    expect(errorsOf({ type: 'integer' }, 2)).toEqual([]);
    expect(errorsOf({ type: 'number' }, 2)).toEqual([]);
  });

  it('treats a type array including null as nullable', () => {
    const schema = { type: 'object', properties: { note: { type: ['string', 'null'] } } };
    expect(errorsOf(schema, { note: null })).toEqual([]);
    expect(errorsOf(schema, { note: 1 })).toEqual(['input.note: expected string or null, got integer']);
  });

  it('accepts OpenAPI-style nullable', () => {
    expect(errorsOf({ type: 'string', nullable: true }, null)).toEqual([]);
  });

  it('checks string lengths in code points and patterns', () => {
    const schema = { type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-z]+$' };
    expect(errorsOf(schema, 'a')).toEqual(['input: must be at least 2 characters long, got 1']);
    expect(errorsOf(schema, 'abcd')).toEqual(['input: must be at most 3 characters long, got 4']);
    expect(errorsOf(schema, 'AB')).toEqual(['input: must match the pattern /^[a-z]+$/']);
    expect(errorsOf({ type: 'string', maxLength: 2 }, '😀😀')).toEqual([]);
  });

  it('ignores a pattern JavaScript cannot compile', () => {
    expect(errorsOf({ type: 'string', pattern: '(?<' }, 'anything')).toEqual([]);
  });

  it('checks a catastrophic-backtracking pattern in linear time (RE2)', () => {
    const evil = `${'a'.repeat(100_000)}!`;
    expect(errorsOf({ type: 'string', pattern: '^(a+)+$' }, evil)).toEqual(['input: must match the pattern /^(a+)+$/']);
    expect(errorsOf({ type: 'string', pattern: '^(a|aa)+$' }, 'aaaa')).toEqual([]);
    const keys = { type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } }, additionalProperties: false };
    expect(errorsOf(keys, { [evil]: 1 })).toEqual([expect.stringContaining('unexpected property')]);
  });

  it('keeps ECMA-262 meanings where RE2 differs: . \\s \\S \\u [] [^]', () => {
    const ok = (pattern: string, s: string) => errorsOf({ type: 'string', pattern }, s).length === 0;
    expect(ok('^.$', '\u2028')).toBe(false);
    expect(ok('^.$', '😀')).toBe(true);
    expect(ok('^\\s$', '\u00a0')).toBe(true);
    expect(ok('^[\\s,]+$', '\ufeff,')).toBe(true);
    expect(ok('^\\S$', '\u3000')).toBe(false);
    expect(ok('^\\u00e9$', 'é')).toBe(true);
    expect(ok('^\\ud83d\\ude00$', '😀')).toBe(true);
    expect(ok('^a[]$', 'a')).toBe(false);
    expect(ok('^a[^]$', 'a\n')).toBe(true);
    expect(ok('^[\\b]$', '\b')).toBe(true);
    expect(ok('^\\d{2}-\\w+$', '12-ab_c')).toBe(true);
  });

  it('does not check a pattern outside the common ground of ECMA-262 and RE2 (lookaround, backreferences)', () => {
    const evil = `${'a'.repeat(50_000)}!`;
    expect(errorsOf({ type: 'string', pattern: '^(?=.*x)(a+)+$' }, evil)).toEqual([]);
    expect(errorsOf({ type: 'string', pattern: '^(a)\\1$' }, 'ab')).toEqual([]);
    expect(errorsOf({ type: 'string', pattern: '[[:alpha:]]' }, '1')).toEqual([]);
  });

  it('validates array items with indexed paths, and item counts', () => {
    const schema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 } } };
    expect(errorsOf(schema, { tags: ['a', 2] })).toEqual(['input.tags[1]: expected string, got integer']);
    expect(errorsOf(schema, { tags: [] })).toEqual(['input.tags: must have at least 1 items, got 0']);
    expect(errorsOf(schema, { tags: ['a', 'b', 'c', 'd'] })).toEqual(['input.tags: must have at most 3 items, got 4']);
  });

  it('validates tuples (prefixItems) and uniqueItems', () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
    expect(errorsOf(schema, ['a', 1])).toEqual([]);
    expect(errorsOf(schema, [1, 1])).toEqual(['input[0]: expected string, got integer']);
    expect(errorsOf(schema, ['a', 1, true])).toEqual(['input[2]: no value is allowed here']);
    expect(errorsOf({ type: 'array', uniqueItems: true }, [{ a: 1, b: 2 }, { b: 2, a: 1 }])).toEqual([
      'input: items must be unique ({"b":2,"a":1} appears more than once)',
    ]);
  });

  it('checks const', () => {
    expect(errorsOf({ const: 'v1' }, 'v2')).toEqual(['input: must equal "v1"']);
    expect(errorsOf({ const: { a: [1] } }, { a: [1] })).toEqual([]);
  });

  it('reports the failures of the one type-compatible anyOf branch', () => {
    const schema = { anyOf: [{ type: 'string', minLength: 3 }, { type: 'number' }] };
    expect(errorsOf(schema, 'ab')).toEqual(['input: must be at least 3 characters long, got 2']);
  });

  it('requires exactly one oneOf match', () => {
    const schema = { oneOf: [{ type: 'number' }, { type: 'integer' }] };
    expect(errorsOf(schema, 1.5)).toEqual([]);
    expect(errorsOf(schema, 2)).toEqual(['input: matches more than one of the allowed alternatives (2)']);
    expect(errorsOf(schema, 'x')).toEqual(['input: expected number or integer, got string']);
  });

  it('applies every allOf schema', () => {
    const schema = { allOf: [{ type: 'object', required: ['a'] }, { type: 'object', required: ['b'] }] };
    expect(errorsOf(schema, { a: 1 })).toEqual(['input: missing required property "b"']);
  });

  it('supports not', () => {
    expect(errorsOf({ not: { type: 'string' } }, 'x')).toEqual(['input: must not match the excluded schema']);
    expect(errorsOf({ not: { type: 'string' } }, 1)).toEqual([]);
  });

  it('resolves local $ref to $defs and definitions', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/pos' }, b: { $ref: '#/definitions/name' } },
      $defs: { pos: { type: 'integer', minimum: 0 } },
      definitions: { name: { type: 'string' } },
    };
    expect(errorsOf(schema, { a: -1, b: 2 })).toEqual(['input.a: must be >= 0, got -1', 'input.b: expected string, got integer']);
  });

  it('survives a recursive $ref', () => {
    const schema = { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } } };
    expect(errorsOf(schema, { next: { next: { next: 'x' } } })).toEqual(['input.next.next.next: expected object, got string']);
  });

  it('quotes property names that are not identifiers', () => {
    const schema = { type: 'object', properties: { 'content-type': { type: 'string' } } };
    expect(errorsOf(schema, { 'content-type': 1 })).toEqual(['input["content-type"]: expected string, got integer']);
  });

  it('checks patternProperties and counts them as known properties', () => {
    const schema = { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false };
    expect(errorsOf(schema, { 'x-a': 'ok' })).toEqual([]);
    expect(errorsOf(schema, { 'x-a': 1, y: 1 })).toEqual([
      'input["x-a"]: expected string, got integer',
      'input: unexpected property "y" (no properties are allowed)',
    ]);
  });

  it('ignores unknown keywords', () => {
    expect(errorsOf({ type: 'string', format: 'uri', 'x-custom': true, examples: ['a'] }, 'not a uri')).toEqual([]);
  });

  it('caps the number of reported errors', () => {
    const schema = { type: 'array', items: { type: 'string' } };
    const errors = errorsOf(schema, Array.from({ length: 30 }, () => 1));
    expect(errors).toHaveLength(21);
    expect(errors[20]).toBe('… and 10 more errors');
  });
});
