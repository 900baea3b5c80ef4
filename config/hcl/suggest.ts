// "Did you mean …?" suggestions: the closest candidate by edit distance, when it is close enough
// to be a plausible typo (HCL suggests names within a Levenshtein distance of 2 or so).

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** The candidate closest to `given`, or undefined when none is a plausible typo of it. */
export function suggestName(given: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDist = Infinity;
  const limit = Math.max(2, Math.floor(given.length / 3));
  for (const c of candidates) {
    if (c === given) continue;
    const d = editDistance(given.toLowerCase(), c.toLowerCase());
    if (d < bestDist || (d === bestDist && best !== undefined && c < best)) {
      best = c;
      bestDist = d;
    }
  }
  return best !== undefined && bestDist <= limit ? best : undefined;
}

export function didYouMean(given: string, candidates: Iterable<string>): string | undefined {
  const s = suggestName(given, candidates);
  return s === undefined ? undefined : `Did you mean "${s}"?`;
}
