import { describe, expect, it } from 'vitest';
import { newId } from '../../store/ids.js';

describe('stored row ids', () => {
  it('are the prefix and 20 base32 characters, all distinct across many refills of the random pool', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => newId(i % 2 ? 'ses' : 'run'));
    for (const id of ids) expect(id).toMatch(/^(run|ses)_[a-z2-7]{20}$/);
    expect(new Set(ids.map((id) => id.slice(4))).size).toBe(ids.length);
  });

  it('use every base32 character about equally (no byte of the pool reused or left zero)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) for (const c of newId('tsk').slice(4)) counts.set(c, (counts.get(c) ?? 0) + 1);
    // 40,000 characters over 32 symbols: 1,250 each on average; a stuck or zeroed pool skews this far.
    expect(counts.size).toBe(32);
    for (const n of counts.values()) expect(n).toBeGreaterThan(1_000);
  });
});
