// "Did you mean …?" suggestions, the one implementation every layer uses (the evaluator, the
// template parser, the loader's hints, SKILL.md keys, the CLI): the closest known name to a
// misspelled one by edit distance (optimal string alignment: a swapped pair of letters is one edit).

/** Edit distance with adjacent transpositions counted as one edit. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m]!;
}

/**
 * The closest candidate, if it is close enough to be a plausible typo: at most a third of the
 * name's length (minimum 1, maximum 3 edits), case ignored. Ties keep the first candidate, so
 * order matters.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    if (c === name) continue;
    const cl = c.toLowerCase();
    // A prefix of at least 3 characters (`browse` for `browsing`) is as good as one typo.
    const prefix = Math.min(cl.length, lower.length) >= 3 && (cl.startsWith(lower) || lower.startsWith(cl));
    const d = cl === lower ? 0.5 : prefix ? Math.min(1, editDistance(lower, cl)) : editDistance(lower, cl);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** HCL's wording of a suggestion: `Did you mean "x"?`, or undefined when nothing is close. */
export function didYouMean(given: string, candidates: Iterable<string>): string | undefined {
  const s = closest(given, candidates);
  return s === undefined ? undefined : `Did you mean "${s}"?`;
}
