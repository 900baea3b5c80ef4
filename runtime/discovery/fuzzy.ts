// Typo tolerance for search queries: the optimal-string-alignment distance (Levenshtein plus the
// transposition of two adjacent letters, the commonest typing slip) with an early exit once a bound is
// exceeded, and the rule for how many edits a word of a given length may carry.

/** Edits allowed for a word: none below 4 letters (too many short words are one edit apart), one up
 *  to 7 letters, two from 8. */
export function allowedEdits(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

/** OSA distance between a and b, or `max + 1` as soon as it is known to exceed `max`. */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n] ?? max + 1;
}

/** Looks up the nearest spellings of a word among a fixed set of words. */
export interface SpellingIndex {
  /**
   * The words nearest to `word` within its allowed edits (all those at the smallest distance found),
   * sorted; [] when none is close enough. Words that differ in their first letter are not considered:
   * typos rarely hit the first letter, and it keeps "cart" from becoming "part".
   */
  nearest(word: string): string[];
}

export function createSpellingIndex(words: Iterable<string>): SpellingIndex {
  // Buckets by first letter, then by length, so a lookup only measures plausible candidates.
  const buckets = new Map<string, Map<number, string[]>>();
  for (const w of new Set(words)) {
    if (w.length < 4) continue;
    const first = w[0] ?? '';
    let byLength = buckets.get(first);
    if (!byLength) buckets.set(first, (byLength = new Map()));
    const list = byLength.get(w.length) ?? [];
    list.push(w);
    byLength.set(w.length, list);
  }
  return {
    nearest(word) {
      const max = allowedEdits(word.length);
      const byLength = buckets.get(word[0] ?? '');
      if (max === 0 || !byLength) return [];
      let best = max + 1;
      let found: string[] = [];
      for (let len = word.length - max; len <= word.length + max; len++) {
        for (const candidate of byLength.get(len) ?? []) {
          const d = boundedDistance(word, candidate, Math.min(max, best));
          if (d < best) {
            best = d;
            found = [candidate];
          } else if (d === best) found.push(candidate);
        }
      }
      return best <= max ? found.sort() : [];
    },
  };
}
