// Turns tool names, descriptions and queries into index terms: identifiers are split into words
// (snake_case, camelCase, dotted refs, kebab-case), words are lower-cased, stop words dropped and the
// rest stemmed. Queries and documents go through the same path so that they meet.

import { stem } from './stem.js';

// A classic English stop list plus request filler ("please", "want"). Phrasal particles such as
// "off" and "up" are dropped here but still seen by the thesaurus, which matches on raw words.
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being
  below between both but by can could did do does doing down during each either else etc ever
  every few for from further had has have having he her here hers herself him himself his how
  i if in into is it its itself just let lets like may me might more most must my myself need needs no
  nor not now of off on once only or other our ours ourselves out over own please same shall she
  should so some such than that the their theirs them themselves then there these they this those
  through to too under until up us use used using very via want wants was we were what when where
  which while who whom whose why will with within would yet you your yours yourself yourselves`.split(/\s+/),
);

/**
 * Splits text and identifiers into lower-case words: `createPullRequest`, `create_pull_request` and
 * `mcp.github.create-pull-request` all yield their parts. Pure digit runs and single letters are
 * dropped; an English possessive `'s` is removed first.
 */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/['’]s\b/g, '')
    // camelCase and PascalCase boundaries, including acronyms: "parseHTTPDate" → "parse HTTP Date".
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const words: string[] = [];
  for (const raw of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || /^\d+$/.test(raw)) continue;
    words.push(raw);
  }
  return words;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

export interface AnalyzeOptions {
  /** Apply the Porter stemmer (default true). */
  stemming?: boolean;
  /** Drop stop words (default true). */
  stopWords?: boolean;
}

/** Index terms of a text: split, stop words removed, stemmed. Order and repeats are preserved. */
export function analyze(text: string, options: AnalyzeOptions = {}): string[] {
  const stemming = options.stemming ?? true;
  const dropStops = options.stopWords ?? true;
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    if (dropStops && STOP_WORDS.has(word)) continue;
    terms.push(stemming ? stem(word) : word);
  }
  return terms;
}
