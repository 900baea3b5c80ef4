// Query expansion from the generated tables (table.ts: WordNet plus the jargon, SaaS and idiom supplements):
// maps the words of a query, and its two- and three-word phrases ("call off", "get rid of"), to
// related tool-vocabulary terms. Keys and targets are stemmed so "phoned" finds the entry for "phone".
// Also the lexicon of English word stems, which tells a typo from a word the tables merely lack.

import { createSpellingIndex, type SpellingIndex } from '../fuzzy.js';
import { stem } from '../stem.js';
import { readBloom, type BloomFilter } from './bloom.js';
import { IDIOMS_TABLE, JARGON_TABLE, LEXICON_BLOOM, SAAS_TABLE, WORDNET_TABLE } from './table.js';

/** Relative strength of a link: same synset or derived form vs. hypernym/hyponym. */
export const STRONG_LINK = 1;
export const WEAK_LINK = 0.5;

export interface QueryExpansion {
  /** Stemmed expansion term → relative strength (STRONG_LINK or WEAK_LINK). */
  terms: Map<string, number>;
  /** Indexes of query words that were part of a matched multi-word phrase. */
  phraseWords: Set<number>;
}

/**
 * Which hand-written supplements join WordNet. `true`/`false` is shorthand for all or none; the
 * benchmark switches them (and WordNet itself) one by one to measure each.
 */
export type Supplements = boolean | { jargon?: boolean; saas?: boolean; idioms?: boolean; wordnet?: boolean };

type Table = Map<string, Map<string, number>>;
const parsed = new Map<string, Table>();

/** The stemmed lookup table for a choice of supplements; parsed once per process and choice. */
function table(supplements: Supplements): Table {
  const jargon = typeof supplements === 'boolean' ? supplements : (supplements.jargon ?? true);
  const saas = typeof supplements === 'boolean' ? supplements : (supplements.saas ?? true);
  const idioms = typeof supplements === 'boolean' ? supplements : (supplements.idioms ?? true);
  const wordnet = typeof supplements === 'boolean' ? true : (supplements.wordnet ?? true);
  const cacheKey = `${jargon}/${saas}/${idioms}/${wordnet}`;
  const cached = parsed.get(cacheKey);
  if (cached) return cached;
  const out: Table = new Map();
  // Idiom entries are strong links like jargon ones: each is a whole-phrase equivalence ("sign off
  // on" = approve), and a phrase match claims its words, so its targets are all they contribute.
  const sources = [
    ...(wordnet ? [WORDNET_TABLE] : []),
    ...(jargon ? [JARGON_TABLE] : []),
    ...(saas ? [SAAS_TABLE] : []),
    ...(idioms ? [IDIOMS_TABLE] : []),
  ];
  for (const source of sources) {
    // The build already stemmed keys and targets and split phrase targets into words.
    for (const line of source.split('\n')) {
      const [key, rest = ''] = line.split('\t');
      if (!key) continue;
      const [strong = '', weak = ''] = rest.split('|');
      let entry = out.get(key);
      if (!entry) out.set(key, (entry = new Map()));
      for (const [list, strength] of [[strong, STRONG_LINK], [weak, WEAK_LINK]] as const) {
        for (const term of list.split(',')) if (term && (entry.get(term) ?? 0) < strength) entry.set(term, strength);
      }
    }
  }
  parsed.set(cacheKey, out);
  return out;
}

const MAX_PHRASE = 3;

/** Expansions of one query word, or of a multi-word phrase starting at `start`. */
export interface WordExpansion {
  start: number;
  /** Number of query words covered: 1 for a single word. */
  length: number;
  terms: Map<string, number>;
}

/**
 * Expands raw (unstemmed, lower-case, stop words kept) query words, one entry per expanded word or
 * phrase, in query order. A phrase match claims its words: they are not expanded again one by one,
 * so "call off" yields "cancel" but not the senses of "call". `skip` marks words (e.g. stop words)
 * that must not be expanded on their own.
 */
export function expandWords(words: readonly string[], skip: (word: string) => boolean, supplements: Supplements = true): WordExpansion[] {
  const t = table(supplements);
  const stems = words.map(stem);
  const out: WordExpansion[] = [];
  const claimed = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(MAX_PHRASE, words.length - i); n >= 2; n--) {
      const entry = t.get(stems.slice(i, i + n).join(' '));
      if (entry) {
        out.push({ start: i, length: n, terms: new Map(entry) });
        for (let j = i; j < i + n; j++) claimed.add(j);
        break;
      }
    }
  }
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const stemmed = stems[i];
    if (word === undefined || stemmed === undefined || claimed.has(i) || skip(word)) continue;
    const entry = t.get(stemmed);
    if (entry) out.push({ start: i, length: 1, terms: new Map(entry) });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The expansions of a stemmed word or phrase (`stem` of each word, space-separated), if it has any. */
export function entryOf(stemmedKey: string, supplements: Supplements = true): ReadonlyMap<string, number> | undefined {
  return table(supplements).get(stemmedKey);
}

/** The stemmed single-word keys of the table, for correcting misspelt everyday words. */
export function keySpellings(supplements: Supplements = true): SpellingIndex {
  const t = table(supplements);
  const cached = spellingCache.get(t);
  if (cached) return cached;
  const index = createSpellingIndex([...t.keys()].filter((k) => !k.includes(' ')));
  spellingCache.set(t, index);
  return index;
}
const spellingCache = new WeakMap<Table, SpellingIndex>();

/** All expansions of a query merged, strongest link per term, plus the words claimed by phrases. */
export function expandQuery(words: readonly string[], skip: (word: string) => boolean, supplements: Supplements = true): QueryExpansion {
  const terms = new Map<string, number>();
  const phraseWords = new Set<number>();
  for (const e of expandWords(words, skip, supplements)) {
    for (const [term, strength] of e.terms) if ((terms.get(term) ?? 0) < strength) terms.set(term, strength);
    if (e.length > 1) for (let j = e.start; j < e.start + e.length; j++) phraseWords.add(j);
  }
  return { terms, phraseWords };
}

let lexicon: BloomFilter | undefined;

/** Whether a stem is that of an English word WordNet knows (or, rarely, a false positive). */
export function isKnownStem(stemmed: string): boolean {
  lexicon ??= readBloom(LEXICON_BLOOM);
  return lexicon.has(stemmed);
}
