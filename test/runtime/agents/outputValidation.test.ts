import { describe, expect, it } from 'vitest';
import type { FieldSchema } from '../../../config/graph.js';
import { validateOutput } from '../../../runtime/agents/outputValidation.js';

const fields: FieldSchema[] = [
  { name: 'count', type: 'integer', description: '', required: true },
  { name: 'title', type: 'string', description: '', required: true },
  { name: 'tags', type: 'array', description: '', required: false, items: { name: '', type: 'string', description: '', required: true } },
  {
    name: 'meta',
    type: 'object',
    description: '',
    required: false,
    properties: [{ name: 'source', type: 'string', description: '', required: true }],
  },
];

describe('validateOutput', () => {
  it('accepts a payload that matches the declared fields', () => {
    expect(validateOutput(fields, { count: 3, title: 'x', tags: ['a'], meta: { source: 'web' } })).toEqual([]);
  });

  it('reports every problem with its path: missing, wrong types, nested, undeclared', () => {
    expect(validateOutput(fields, { count: 2.5, tags: ['a', 7], meta: {}, extra: 1 })).toEqual([
      'output.count: expected an integer, got number 2.5',
      'output.title: required field is missing',
      'output.tags[1]: expected a string, got number 7',
      'output.meta.source: required field is missing',
      'output.extra: not a declared output field (declared: count, title, tags, meta)',
    ]);
  });

  it('treats null as missing and rejects a non-object payload', () => {
    expect(validateOutput(fields, { count: null, title: 'x' })).toEqual(['output.count: required field is missing']);
    expect(validateOutput(fields, ['x'])).toEqual(['output: expected an object, got an array']);
  });
});
