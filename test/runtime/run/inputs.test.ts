import { describe, expect, it } from 'vitest';
import type { Mission, MissionInput } from '../../../config/graph.js';
import { resolveInputs } from '../../../runtime/run/inputs.js';

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

  it('refuses a number a float64 cannot hold exactly instead of rounding it', () => {
    const big = resolveInputs(mission(declared), { topic: 't', limit: '99999999999999999999999' });
    expect(big).toEqual({
      ok: false,
      errors: [
        'input "limit": the number 99999999999999999999999 cannot be held exactly (it would become 99999999999999991611392); numbers keep about 15 significant digits; declare the input with type = "string" to keep every digit',
      ],
    });
    expect(resolveInputs(mission(declared), { topic: 't', ratio: '1e-400' })).toMatchObject({ ok: false });
    expect(resolveInputs(mission(declared), { topic: 't', ratio: '0.1000000000000000000000001' })).toMatchObject({ ok: false });
    expect(resolveInputs(mission(declared), { topic: 't', sites: '["x", 12345678901234567890]' })).toMatchObject({
      ok: false,
      errors: [expect.stringContaining('input "sites": the number 12345678901234567890 cannot be held exactly')],
    });
    expect(resolveInputs(mission(declared), { topic: 't', ratio: '0x10' })).toEqual({ ok: false, errors: ['input "ratio" expects a number, got "0x10"'] });
    const fine = resolveInputs(mission(declared), { topic: 't', limit: '9007199254740992', ratio: '-1.50e3', opts: '{"a":"99999999999999999999", "b":0.1}' });
    expect(fine).toEqual({ ok: true, inputs: { topic: 't', limit: 9007199254740992, ratio: -1500, strict: false, sites: [], opts: { a: '99999999999999999999', b: 0.1 } } });
  });

  it('uses a visible placeholder for missing required inputs when planning', () => {
    expect(resolveInputs(mission(declared), {}, { placeholders: true })).toMatchObject({ ok: true, inputs: { topic: '<inputs.topic>' } });
  });
});
