import { describe, expect, it } from 'vitest';
import { strictToolSchema } from '../../../runtime/providers/strictSchema.js';

const schema = {
  type: 'object',
  properties: {
    summary: { type: 'string', minLength: 1, description: 'what was done' },
    route: { type: 'string', enum: ['a', 'none'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    detail: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'], additionalProperties: false },
  },
  required: ['summary'],
  additionalProperties: false,
};

describe('strictToolSchema', () => {
  it('OpenAI: lists every property as required, optional ones nullable (enums too), and drops constraints the runtime checks', () => {
    expect(strictToolSchema(schema, 'openai')).toEqual({
      type: 'object',
      properties: {
        summary: { type: 'string', description: 'what was done' },
        route: { type: ['string', 'null'], enum: ['a', 'none', null] },
        tags: { type: ['array', 'null'], items: { type: 'string' } },
        detail: { type: ['object', 'null'], properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
      },
      required: ['summary', 'route', 'tags', 'detail'],
      additionalProperties: false,
    });
  });

  it('Anthropic: keeps optional properties optional', () => {
    const wire = strictToolSchema(schema, 'anthropic')!;
    expect(wire['required']).toEqual(['summary']);
    expect((wire['properties'] as Record<string, unknown>)['route']).toEqual({ type: 'string', enum: ['a', 'none'] });
  });

  it('does not qualify an open object, a map, or a keyword without a strict equivalent', () => {
    expect(strictToolSchema({ type: 'object', properties: { a: { type: 'string' } } }, 'openai')).toBeUndefined();
    expect(strictToolSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: {} } }, additionalProperties: false }, 'anthropic')).toBeUndefined();
    expect(strictToolSchema({ type: 'object', properties: { a: { oneOf: [{ type: 'string' }] } }, additionalProperties: false }, 'openai')).toBeUndefined();
  });
});
