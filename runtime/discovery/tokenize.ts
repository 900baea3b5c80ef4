// Turns tool names, descriptions and queries into index terms: identifiers are split into words
// (snake_case, camelCase, dotted refs, kebab-case), words are lower-cased, stop words dropped and the
// rest stemmed. Queries and documents go through the same path so that they meet.

import { stem } from './stem.js';

// A classic English stop list plus request filler ("please", "want") and the indefinite pronouns
// ("anything", "everyone"). Phrasal particles such as "off" and "up" are dropped here but still seen
// by the thesaurus, which matches on raw words.
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being
  anybody anyone anything everybody everyone everything nobody nothing somebody someone something
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
 * dropped; an English possessive `'s` is removed first. A mixed-case word for which `keepWhole`
 * says yes stays whole instead ("GitHub" → github), since brand names are written both ways.
 */
export function splitWords(text: string, keepWhole?: (word: string) => boolean): string[] {
  let cleaned = text.replace(/['’]s\b/g, '');
  if (keepWhole && /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/.test(cleaned)) {
    // Lower-casing a kept word first stops the camelCase split below from seeing it.
    cleaned = cleaned.replace(/[A-Za-z0-9]+/g, (token) => (isMixedCase(token) && keepWhole(token.toLowerCase()) ? token.toLowerCase() : token));
  }
  const spaced = cleaned
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

/** Whether a word is written in mixed case, hence split by splitWords ("GitHub", "dryRun"). */
function isMixedCase(token: string): boolean {
  return /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/.test(token);
}

/** The mixed-case words of a text, lower-cased whole: "a GitHub repo" → ["github"]. */
export function compoundWords(text: string): string[] {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(isMixedCase)
    .map((t) => t.toLowerCase());
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

export interface AnalyzeOptions {
  /** Apply the Porter stemmer (default true). */
  stemming?: boolean;
  /** Drop stop words (default true). */
  stopWords?: boolean;
  /** Also index mixed-case words whole, after the text's words ("GitHub" → …, github). */
  compounds?: boolean;
}

/** Index terms of a text: split, stop words removed, stemmed. Order and repeats are preserved. */
export function analyze(text: string, options: AnalyzeOptions = {}): string[] {
  const stemming = options.stemming ?? true;
  const dropStops = options.stopWords ?? true;
  const terms: string[] = [];
  const words = splitWords(text);
  if (options.compounds) words.push(...compoundWords(text));
  for (const word of words) {
    if (dropStops && STOP_WORDS.has(word)) continue;
    terms.push(stemming ? stem(word) : word);
  }
  return terms;
}
