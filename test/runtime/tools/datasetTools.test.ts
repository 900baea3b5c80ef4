// builtins.dataset.set | sample | count: what they answer through the run's dataset access, and
// outside a run (no access: an error result, never a throw).

import { describe, expect, it } from 'vitest';
import type { Value } from '../../../config/hcl/value.js';
import { builtinToolSpecs } from '../../../runtime/tools/builtins/index.js';
import type { DatasetAccess } from '../../../runtime/tools/types.js';
import { textOf, toolContext } from './toolContext.js';

const spec = (ref: string) => builtinToolSpecs().find((s) => s.ref === ref)!;

function access(): DatasetAccess & { sets: unknown[] } {
  let items: Value[] = [{ n: 1 }, { n: 2 }, { n: 3 }];
  const sets: unknown[] = [];
  return {
    sets,
    async set(name, given, append) {
      sets.push({ name, given, append });
      items = append ? [...items, ...given] : [...given];
      return { ok: true, message: `set ${name} to ${items.length}` };
    },
    async items(name) {
      return name === 'd' ? items : `no dataset "${name}"`;
    },
  };
}

describe('dataset tools', () => {
  it('set passes name, items and append; sample gives the first items; count counts', async () => {
    const datasets = access();
    const ctx = { ...toolContext(), datasets };
    const set = await spec('builtins.dataset.set').execute({ name: 'd', items: [{ n: 4 }], append: true }, ctx);
    expect(set.isError).toBe(false);
    expect(datasets.sets).toEqual([{ name: 'd', given: [{ n: 4 }], append: true }]);
    expect(JSON.parse(textOf(await spec('builtins.dataset.sample').execute({ name: 'd', count: 2 }, ctx)))).toEqual([{ n: 1 }, { n: 2 }]);
    expect(textOf(await spec('builtins.dataset.count').execute({ name: 'd' }, ctx))).toBe('dataset "d" holds 4 items');
    const unknown = await spec('builtins.dataset.count').execute({ name: 'x' }, ctx);
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('no dataset "x"');
  });

  it('items must be objects; outside a run every dataset tool is an error result', async () => {
    const bad = await spec('builtins.dataset.set').execute({ name: 'd', items: [1] }, { ...toolContext(), datasets: access() });
    expect(bad.isError).toBe(true);
    const calls: [string, unknown][] = [
      ['builtins.dataset.set', { name: 'd', items: [] }],
      ['builtins.dataset.sample', { name: 'd' }],
      ['builtins.dataset.count', { name: 'd' }],
    ];
    for (const [ref, input] of calls) {
      const r = await spec(ref).execute(input, toolContext());
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('the dataset tools work inside a run of a mission only');
    }
  });
});
