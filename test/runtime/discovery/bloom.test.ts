import { describe, expect, it } from 'vitest';
import { bloomParameters, bloomPositions, readBloom } from '../../../runtime/discovery/thesaurus/bloom.js';

function build(words: string[], rate: number) {
  const { bits, hashes } = bloomParameters(words.length, rate);
  const bytes = new Uint8Array(Math.ceil(bits / 8));
  for (const w of words) for (const p of bloomPositions(w, bits, hashes)) bytes[p >> 3] = (bytes[p >> 3] ?? 0) | (1 << (p & 7));
  return readBloom({ bits, hashes, data: Buffer.from(bytes).toString('base64') });
}

describe('Bloom filter', () => {
  const words = Array.from({ length: 2000 }, (_, i) => `word${i}x`);
  const filter = build(words, 0.01);

  it('has every word put in it', () => {
    expect(words.every((w) => filter.has(w))).toBe(true);
  });

  it('answers yes for other words about as rarely as its rate says', () => {
    const others = Array.from({ length: 5000 }, (_, i) => `other${i}y`);
    const falsePositives = others.filter((w) => filter.has(w)).length;
    expect(falsePositives / others.length).toBeLessThan(0.03);
  });

  it('sizes itself by the textbook formula', () => {
    expect(bloomParameters(1000, 0.01)).toEqual({ bits: 9586, hashes: 7 });
  });
});
