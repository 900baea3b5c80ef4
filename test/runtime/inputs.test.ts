import { describe, expect, it } from 'vitest';
import type { Mission, MissionInput } from '../../config/graph.js';
import { resolveInputs } from '../../runtime/inputs.js';

function mission(inputs: MissionInput[]): Mission {
  return { name: 'm', inputs } as unknown as Mission;
}

const declared: MissionInput[] = [
  { name: 'topic', type: 'string', required: true },
  { name: 'limit', type: 'integer', required: false, default: 5 },
  { name: 'ratio', type: 'number', required: false },
  { name: 'strict', type: 'bool', required: false, default: false },
  { name: 'sites', type: 'list', required: false, default: [] },
  { name: 'opts', type: 'object', required: false },
];

describe('resolveInputs', () => {
  it('converts each value by its declared type and fills defaults', () => {
    const result = resolveInputs(mission(declared), { topic: 'tides', limit: '10', ratio: '0.5', strict: 'true', sites: '["a","b"]', opts: '{"k":1}' });
    expect(result).toEqual({ ok: true, inputs: { topic: 'tides', limit: 10, ratio: 0.5, strict: true, sites: ['a', 'b'], opts: { k: 1 } } });
    expect(resolveInputs(mission(declared), { topic: 't' })).toEqual({
      ok: true,
      inputs: { topic: 't', limit: 5, ratio: null, strict: false, sites: [], opts: null },
    });
  });

  it('names every problem: missing required, wrong type, undeclared key', () => {
    const result = resolveInputs(mission(declared), { limit: '2.5', strict: 'yes', sites: '{}', nope: 'x' });
    expect(result).toEqual({
      ok: false,
      errors: [
        'mission "m" has no input "nope" (inputs: topic, limit, ratio, strict, sites, opts)',
        'input "topic" (string) is required: pass -i topic=…',
        'input "limit" expects a whole number, got "2.5"',
        'input "strict" expects true or false, got "yes"',
        'input "sites" expects a JSON array, got "{}"',
      ],
    });
  });

  it('uses a visible placeholder for missing required inputs when planning', () => {
    expect(resolveInputs(mission(declared), {}, { placeholders: true })).toMatchObject({ ok: true, inputs: { topic: '<inputs.topic>' } });
  });
});
