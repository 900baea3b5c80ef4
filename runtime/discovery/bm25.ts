// BM25F scoring over documents made of weighted fields (Robertson & Zaragoza's simple BM25F): term
// frequencies are length-normalized per field, weighted, summed, then saturated once with k1. Query
// terms carry their own weight so that expansion terms count less than the words actually typed.

export interface FieldParams {
  /** How much one occurrence in this field counts relative to the others. */
  weight: number;
  /** Length normalization strength, 0 (none) to 1 (full). */
  b: number;
}

export type FieldTerms<F extends string> = Record<F, readonly string[]>;

export interface Bm25Scorer {
  /** Score of every document (by position) for weighted query terms; 0 when nothing matches. */
  score(query: ReadonlyMap<string, number>): Float64Array;
  /** Whether any document contains the term. */
  has(term: string): boolean;
}

interface Posting {
  doc: number;
  /** Term frequency per field, in `fields` order. */
  tf: number[];
}

export function createBm25Scorer<F extends string>(
  docs: ReadonlyArray<FieldTerms<F>>,
  fields: Readonly<Record<F, FieldParams>>,
  k1 = 1.2,
): Bm25Scorer {
  const names = Object.keys(fields).sort() as F[];
  const params = names.map((f) => fields[f]);
  const lengths = docs.map((d) => names.map((f) => d[f].length));
  const avg = names.map((_, i) => docs.reduce((sum, _d, j) => sum + (lengths[j]?.[i] ?? 0), 0) / Math.max(1, docs.length) || 1);

  const postings = new Map<string, Posting[]>();
  docs.forEach((doc, d) => {
    const local = new Map<string, number[]>();
    names.forEach((field, i) => {
      for (const term of doc[field]) {
        let tf = local.get(term);
        if (!tf) local.set(term, (tf = new Array<number>(names.length).fill(0)));
        tf[i] = (tf[i] ?? 0) + 1;
      }
    });
    for (const [term, tf] of local) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push({ doc: d, tf });
    }
  });

  const n = docs.length;
  return {
    has: (term) => postings.has(term),
    score(query) {
      const scores = new Float64Array(n);
      // Sorted iteration keeps floating-point summation order, hence ties, deterministic.
      for (const term of [...query.keys()].sort()) {
        const weight = query.get(term) ?? 0;
        const list = postings.get(term);
        if (!list || weight <= 0) continue;
        const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
        for (const { doc, tf } of list) {
          let pseudo = 0;
          params.forEach((p, i) => {
            const count = tf[i] ?? 0;
            if (count === 0) return;
            const len = lengths[doc]?.[i] ?? 0;
            pseudo += (p.weight * count) / (1 - p.b + (p.b * len) / (avg[i] ?? 1));
          });
          scores[doc] = (scores[doc] ?? 0) + weight * idf * (pseudo / (k1 + pseudo));
        }
      }
      return scores;
    },
  };
}
