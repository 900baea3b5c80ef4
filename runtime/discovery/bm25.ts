// BM25F scoring over documents made of weighted fields (Robertson & Zaragoza's simple BM25F): term
// frequencies are length-normalized per field, weighted, summed, then saturated once with k1. A query
// is a list of concepts — one per query word — each a set of alternative terms with their own weights
// (the typed word, its synonyms, a typo's corrections). A concept is scored as one term whose
// frequency is the weighted sum of its alternatives' (Indri's #syn): several synonyms in a document
// add evidence, but saturate together, so a word with many synonyms does not outweigh the others.

export interface FieldParams {
  /** How much one occurrence in this field counts relative to the others. */
  weight: number;
  /** Length normalization strength, 0 (none) to 1 (full). */
  b: number;
}

export type FieldTerms<F extends string> = Record<F, readonly string[]>;

/** Alternative terms for one query word (or phrase), each with its weight relative to a typed word. */
export type Concept = ReadonlyMap<string, number>;

export interface Bm25Scorer {
  /** Sum over concepts of each concept's saturated score, per document (by position). */
  scoreConcepts(concepts: readonly Concept[]): Float64Array;
  /** Every term is its own concept: the classic weighted BM25F sum. */
  score(query: ReadonlyMap<string, number>): Float64Array;
  /** Whether any document contains the term. */
  has(term: string): boolean;
  /** Every indexed term, in no particular order. */
  terms(): IterableIterator<string>;
  /** Distinct terms and (term, document) postings: the size of the index. */
  size(): { terms: number; postings: number };
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
  // A term's idf and its BM25F pseudo-frequency in every document that holds it, computed once per
  // term: queries repeat terms (a synonym shared by two query words) and the index is immutable.
  const termStats = new Map<string, { idf: number; pseudo: Array<[number, number]> }>();
  function statsOf(term: string): { idf: number; pseudo: Array<[number, number]> } | undefined {
    const cached = termStats.get(term);
    if (cached) return cached;
    const list = postings.get(term);
    if (!list) return undefined;
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    const pseudo: Array<[number, number]> = list.map(({ doc, tf }) => {
      let p = 0;
      params.forEach((f, i) => {
        const count = tf[i] ?? 0;
        if (count === 0) return;
        const len = lengths[doc]?.[i] ?? 0;
        p += (f.weight * count) / (1 - f.b + (f.b * len) / (avg[i] ?? 1));
      });
      return [doc, p];
    });
    const stats = { idf, pseudo };
    termStats.set(term, stats);
    return stats;
  }

  function scoreConcepts(concepts: readonly Concept[]): Float64Array {
    const scores = new Float64Array(n);
    // Per document: the concept's weighted pseudo-frequency, and that sum with each term's idf.
    const freq = new Float64Array(n);
    const idfFreq = new Float64Array(n);
    for (const concept of concepts) {
      freq.fill(0);
      idfFreq.fill(0);
      // Sorted iteration keeps floating-point order, hence ties, deterministic.
      for (const term of [...concept.keys()].sort()) {
        const weight = concept.get(term) ?? 0;
        const stats = weight > 0 ? statsOf(term) : undefined;
        if (!stats) continue;
        for (const [doc, p] of stats.pseudo) {
          freq[doc] = (freq[doc] ?? 0) + weight * p;
          idfFreq[doc] = (idfFreq[doc] ?? 0) + weight * p * stats.idf;
        }
      }
      // The concept is one pseudo-term (Indri's #syn, Lucene's SynonymQuery): the frequencies of its
      // terms, each scaled by its weight, add up before the single saturation, and its idf is the
      // frequency-weighted mean of theirs. A synonym occurrence therefore always adds, never subtracts.
      for (let d = 0; d < n; d++) {
        const f = freq[d] ?? 0;
        if (f > 0) scores[d] = (scores[d] ?? 0) + ((idfFreq[d] ?? 0) / f) * (f / (k1 + f));
      }
    }
    return scores;
  }

  return {
    has: (term) => postings.has(term),
    terms: () => postings.keys(),
    size: () => ({ terms: postings.size, postings: [...postings.values()].reduce((sum, list) => sum + list.length, 0) }),
    scoreConcepts,
    score: (query) => scoreConcepts([...query.keys()].sort().map((t) => new Map([[t, query.get(t) ?? 0]]))),
  };
}
