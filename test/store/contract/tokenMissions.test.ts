// A bearer token limited to some missions (migration 0020) on both backends: the list is kept with
// the token, read back by findActive and list, and a token made without one reaches every mission.

import { describe, expect, it } from 'vitest';
import { useBackends } from './backends.js';

describe.each(useBackends())('$name store: tokens limited to missions', (backend) => {
  it('keeps the missions of a token and reads them back; a token without them has none', async () => {
    const store = await backend.fresh();
    const narrow = await store.tokens.create({ id: 'tok_a', name: 'narrow', hash: 'h1', missions: ['publish', 'digest'] });
    expect(narrow.missions).toEqual(['publish', 'digest']);
    await store.tokens.create({ id: 'tok_b', name: 'wide', hash: 'h2' });
    expect((await store.tokens.findActive('h1'))?.missions).toEqual(['publish', 'digest']);
    const wide = await store.tokens.findActive('h2');
    expect(wide).toBeDefined();
    expect(wide!.missions).toBeUndefined();
    expect((await store.tokens.list()).map((t) => [t.name, t.missions ?? null])).toEqual([
      ['narrow', ['publish', 'digest']],
      ['wide', null],
    ]);
  });
});
