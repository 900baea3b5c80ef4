// A Bloom filter over strings, shared by the thesaurus build (which fills it) and the runtime (which
// queries it): k bit positions per string by double hashing two 32-bit FNV-1a variants. False
// positives are possible at the chosen rate; false negatives are not.

/** Bits and hash count for `n` items at false-positive rate `p` (the textbook optimum). */
export function bloomParameters(n: number, p: number): { bits: number; hashes: number } {
  const bits = Math.max(8, Math.ceil((-n * Math.log(p)) / Math.LN2 ** 2));
  const hashes = Math.max(1, Math.round((bits / Math.max(1, n)) * Math.LN2));
  return { bits, hashes };
}

/** The bit positions of `text` in a filter of `bits` bits with `hashes` hashes. */
export function bloomPositions(text: string, bits: number, hashes: number): number[] {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
    h2 ^= h2 >>> 15;
  }
  h2 = (h2 | 1) >>> 0; // odd, so the k positions differ
  const out: number[] = [];
  for (let i = 0; i < hashes; i++) out.push(((h1 + Math.imul(i, h2)) >>> 0) % bits);
  return out;
}

export interface BloomFilter {
  has(text: string): boolean;
}

export function readBloom(spec: { bits: number; hashes: number; data: string }): BloomFilter {
  const bytes = Buffer.from(spec.data, 'base64');
  return {
    has: (text) => bloomPositions(text, spec.bits, spec.hashes).every((p) => ((bytes[p >> 3] ?? 0) & (1 << (p & 7))) !== 0),
  };
}
