// Query expansion from the generated tables (table.ts: WordNet plus the jargon supplement): maps the
// words of a query, and its two- and three-word phrases ("call off", "get rid of"), to related
// tool-vocabulary terms. Keys and targets are stemmed so "phoned" finds the entry for "phone".

import { stem } from '../stem.js';
import { JARGON_TABLE, WORDNET_TABLE } from './table.js';

/** Relative strength of a link: same synset or derived form vs. hypernym/hyponym. */
export const STRONG_LINK = 1;
export const WEAK_LINK = 0.5;

export interface QueryExpansion {
  /** Stemmed expansion term → relative strength (STRONG_LINK or WEAK_LINK). */
  terms: Map<string, number>;
  /** Indexes of query words that were part of a matched multi-word phrase. */
  phraseWords: Set<number>;
}

type Table = Map<string, Map<string, number>>;
const parsed = new Map<boolean, Table>();

/** The stemmed lookup table, with or without the jargon supplement; parsed once per process. */
function table(jargon: boolean): Table {
  const cached = parsed.get(jargon);
  if (cached) return cached;
  const out: Table = new Map();
  for (const source of jargon ? [WORDNET_TABLE, JARGON_TABLE] : [WORDNET_TABLE]) {
    for (const line of source.split('\n')) {
      const [key, rest = ''] = line.split('\t');
      if (!key) continue;
      const stemmedKey = key.split(' ').map(stem).join(' ');
      const [strong = '', weak = ''] = rest.split('|');
      let entry = out.get(stemmedKey);
      if (!entry) out.set(stemmedKey, (entry = new Map()));
      for (const [list, strength] of [[strong, STRONG_LINK], [weak, WEAK_LINK]] as const) {
        for (const target of list.split(',')) {
          // A phrase target ("pull request") contributes each of its words.
          for (const part of target.split(' ')) {
            if (!part) continue;
            const term = stem(part);
            if ((entry.get(term) ?? 0) < strength) entry.set(term, strength);
          }
        }
      }
    }
  }
  parsed.set(jargon, out);
  return out;
}

const MAX_PHRASE = 3;

/**
 * Expands raw (unstemmed, lower-case, stop words kept) query words. A phrase match claims its words:
 * they are not expanded again one by one, so "call off" yields "cancel" but not the senses of "call".
 * `skip` marks words (e.g. stop words) that must not be expanded on their own.
 */
export function expandQuery(words: readonly string[], skip: (word: string) => boolean, jargon = true): QueryExpansion {
  const t = table(jargon);
  const stems = words.map(stem);
  const terms = new Map<string, number>();
  const phraseWords = new Set<number>();
  const merge = (entry: Map<string, number>): void => {
    for (const [term, strength] of entry) if ((terms.get(term) ?? 0) < strength) terms.set(term, strength);
  };
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(MAX_PHRASE, words.length - i); n >= 2; n--) {
      const entry = t.get(stems.slice(i, i + n).join(' '));
      if (entry) {
        merge(entry);
        for (let j = i; j < i + n; j++) phraseWords.add(j);
        break;
      }
    }
  }
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const stemmed = stems[i];
    if (word === undefined || stemmed === undefined || phraseWords.has(i) || skip(word)) continue;
    const entry = t.get(stemmed);
    if (entry) merge(entry);
  }
  return { terms, phraseWords };
}
