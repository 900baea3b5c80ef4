// Turns a search query into concepts for the BM25F scorer: one per content word, holding the word's
// stem (weight 1) and what may stand for it at lower weights — WordNet/jargon expansions, action
// classes ("erase" → ~remove), spelling corrections for a word no tool or thesaurus knows — plus
// concepts for things recognized by their shape (a file path → "file") and for questions (→ read).

import type { Concept } from './bm25.js';
import { recognizeEntities } from './entities.js';
import type { SpellingIndex } from './fuzzy.js';
import { ACTION_PREFIX, actionClasses } from './thesaurus/actions.js';
import { entryOf, expandWords, isKnownStem, keySpellings, type Supplements, type WordExpansion } from './thesaurus/thesaurus.js';
import { isStopWord } from './tokenize.js';
import { queryWords } from './verbSlots.js';
import { stem } from './stem.js';

export interface QueryOptions {
  stemming: boolean;
  /** Thesaurus expansion and its weight (strong link; weak links get half). */
  expansion: boolean;
  /** Hand-written supplements to WordNet. */
  supplements: Supplements;
  expansionWeight: number;
  /** Action classes and their weight. */
  actions: boolean;
  actionWeight: number;
  /** Typo correction and its weight. */
  typos: boolean;
  typoWeight: number;
  /** Entity and question recognition. */
  entities: boolean;
  /** Weight of the "read" marker a question adds. */
  questionWeight: number;
  /** Weight of two adjacent query words found adjacent in a tool's name or first sentence. */
  phraseWeight: number;
}

/** What the query side needs to know about the index. */
export interface IndexTerms {
  has(term: string): boolean;
  /** Its plain (non-class) stemmed terms, the candidates for spelling correction. */
  readonly spellings: SpellingIndex;
}

const MAX_CORRECTIONS = 8;

/** Classes a question asks for: reading one thing, listing many, or searching. */
const READ_CLASSES = ['get', 'find', 'search'].map((c) => ACTION_PREFIX + c);

export function queryConcepts(query: string, index: IndexTerms, o: QueryOptions): Concept[] {
  const entities = o.entities ? recognizeEntities(query) : { text: query, words: [], question: false };
  // "GitHub" stays one word when the index or the thesaurus knows it whole; "createPullRequest" splits.
  const term = (w: string): string => (o.stemming ? stem(w) : w);
  const { words, verbSlots, clauses } = queryWords(entities.text, (whole) => index.has(term(whole)) || entryOf(stem(whole), o.supplements) !== undefined);
  for (const w of entities.words) if (!words.includes(w)) words.push(w);

  const byWord = new Map<number, Map<string, number>>();
  const extra: Array<Map<string, number>> = [];
  const put = (concept: Map<string, number>, term: string, weight: number): void => {
    if ((concept.get(term) ?? 0) < weight) concept.set(term, weight);
  };

  words.forEach((word, i) => {
    if (isStopWord(word)) return;
    byWord.set(i, new Map<string, number>([[term(word), 1]]));
    // A word in a verb slot names the action. That is separate evidence: "delete" matching both a
    // tool's name and its action class says more than either alone, so the class is a concept of
    // its own rather than an alternative.
    const classes = o.actions && verbSlots.has(i) ? actionClasses(word) : [];
    if (classes.length > 0) extra.push(new Map(classes.map((c) => [c, o.actionWeight])));
  });

  const expansions: WordExpansion[] = o.expansion ? expandWords(words, isStopWord, o.supplements) : [];
  for (const e of expansions) {
    // A phrase ("get rid of") lends its expansions to its first content word, or stands alone.
    let target: Map<string, number> | undefined;
    for (let j = e.start; j < e.start + e.length && !target; j++) target = byWord.get(j);
    if (!target) extra.push((target = new Map()));
    for (const [term, strength] of e.terms) put(target, term, o.expansionWeight * strength);
  }

  if (o.typos && o.stemming) {
    const expanded = new Set(expansions.filter((e) => e.length === 1).map((e) => e.start));
    let corrections = 0;
    for (const [i, concept] of byWord) {
      const word = words[i] ?? '';
      const stemmed = stem(word);
      if (expanded.has(i) || index.has(stemmed) || entryOf(stemmed, o.supplements) !== undefined || isKnownStem(stemmed) || actionClasses(word).length > 0) continue;
      // A real request has few unknown words; a long run of them is noise not worth the lookups.
      if (++corrections > MAX_CORRECTIONS) break;
      for (const near of index.spellings.nearest(stemmed)) put(concept, near, o.typoWeight);
      if (!o.expansion) continue;
      for (const key of keySpellings(o.supplements).nearest(stemmed)) {
        for (const [term, strength] of entryOf(key, o.supplements) ?? []) put(concept, term, o.typoWeight * o.expansionWeight * strength);
      }
    }
  }

  if (o.phraseWeight > 0) {
    // Consecutive content words of one clause, as the index pairs consecutive content words.
    let previous: number | undefined;
    for (let i = 0; i < clauses.length; i++) {
      if (isStopWord(words[i] ?? '')) continue;
      if (previous !== undefined && clauses[previous] === clauses[i]) {
        extra.push(new Map([[`${term(words[previous] ?? '')}_${term(words[i] ?? '')}`, o.phraseWeight]]));
      }
      previous = i;
    }
  }
  if (entities.question && o.actions) extra.push(new Map(READ_CLASSES.map((c) => [c, o.questionWeight])));
  return [...byWord.keys()].sort((a, b) => a - b).map((i) => byWord.get(i) as Concept).concat(extra);
}
