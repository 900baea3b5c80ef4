// The search index over one task's authorized tools. It holds exactly the ToolSpecs it was given —
// a tool outside them cannot be ranked, listed, looked up or counted — and ranks them for a query
// with BM25F over the name's verb and object, the verb's action class, group, description and
// parameters. Each query word becomes a concept: the word, its WordNet/jargon expansions, its action
// classes and, for a word no tool or thesaurus knows, its nearest spellings in the index.

import type { ToolSpec } from '../tools/types.js';
import { createBm25Scorer, type Bm25Scorer, type Concept, type FieldParams, type FieldTerms } from './bm25.js';
import { createSpellingIndex } from './fuzzy.js';
import { queryConcepts, type IndexTerms, type QueryOptions } from './queryConcepts.js';
import { actionClasses } from './thesaurus/actions.js';
import { analyze } from './tokenize.js';
import { nameParts } from './toolName.js';

export type ToolField = 'name' | 'action' | 'group' | 'groupText' | 'description' | 'details' | 'phrases' | 'params' | 'paramText';

/** Knobs for the ranking; the defaults are what search_tools uses. Benchmarks switch parts off. */
export interface RankingOptions {
  /** Porter-stem index and query terms (default true). */
  stemming?: boolean;
  /** Expand queries with the thesaurus (default true); its tables are stemmed, so keep stemming on. */
  expansion?: boolean;
  /** Include the hand-written jargon supplement (abbreviations, modern senses) in the expansion (default true). */
  jargon?: boolean;
  /** Include the hand-written SaaS object synonyms (saas.txt) in the expansion (default true). */
  saas?: boolean;
  /** Include the hand-written everyday phrasings of actions (idioms.txt: "can't make it", "spin up") (default true). */
  idioms?: boolean;
  /**
   * Include the WordNet table in the expansion (default false). On every intent set but one it ties or
   * costs recall@5 (bench/discovery-recall.mjs: 0.98 → 0.96 on fresh, 0.99 → 0.97 on holdout3, 0.94 →
   * 0.88 on holdout5, 0.92 → 0.90 on holdout7): its general senses pull in tools the user did not
   * mean, where the hand-written supplements link only the senses tools use. Its lexicon still tells
   * typos.
   */
  wordnet?: boolean;
  /** Weight of a strong thesaurus term relative to a typed word (weak links get half). */
  expansionWeight?: number;
  /** Index name verbs and query words under their action classes (default true). */
  actions?: boolean;
  /** Weight of an action-class match relative to a typed word. */
  actionWeight?: number;
  /** Correct words that neither the index nor the thesaurus knows to their nearest spellings (default true). */
  typos?: boolean;
  /** Weight of a corrected spelling relative to a typed word. */
  typoWeight?: number;
  /**
   * How a word's alternatives combine: `syn` (default) scores them as one pseudo-term (see bm25.ts),
   * `sum` scores every term as if typed separately (classic expanded-query BM25, for comparison).
   */
  combine?: 'syn' | 'sum';
  /** Recognize file paths, URLs, e-mail addresses, #channels, @mentions, SQL and questions (default true). */
  entities?: boolean;
  /** Weight of the "read" action a question adds. */
  questionWeight?: number;
  /** Weight of two adjacent query words found adjacent in a tool's name or first sentence (0: off). */
  phraseWeight?: number;
  fields?: Partial<Record<ToolField, FieldParams>>;
  k1?: number;
  /**
   * Descriptions of groups (a toolset's `description`, an MCP server's instructions), indexed with
   * each tool of the group. Entries for groups without tools in the index are ignored.
   */
  groupDescriptions?: Readonly<Record<string, string>>;
}

export const DEFAULT_FIELDS: Readonly<Record<ToolField, FieldParams>> = {
  name: { weight: 3, b: 0.3 },
  action: { weight: 1.5, b: 0 },
  // Group words are no longer repeated in the name (see toolName.ts), so the group field carries the
  // weight the two had together.
  group: { weight: 3, b: 0.3 },
  groupText: { weight: 0.5, b: 0.5 },
  description: { weight: 1, b: 0.75 },
  // The first sentence says what a tool does; the rest adds caveats ("only within allowed directories").
  details: { weight: 0.6, b: 0.75 },
  phrases: { weight: 1, b: 0 },
  params: { weight: 0.5, b: 0.5 },
  paramText: { weight: 0.3, b: 0.75 },
};
export const DEFAULT_EXPANSION_WEIGHT = 0.3;
export const DEFAULT_ACTION_WEIGHT = 0.45;
export const DEFAULT_TYPO_WEIGHT = 0.7;
export const DEFAULT_QUESTION_WEIGHT = 0.3;
export const DEFAULT_PHRASE_WEIGHT = 0.5;

export interface GroupSummary {
  name: string;
  count: number;
}

export interface RankedTool {
  tool: ToolSpec;
  score: number;
}

export interface ToolIndex {
  /** Number of tools in the index. */
  readonly size: number;
  /** The indexed tools, ordered by API name. */
  tools(): readonly ToolSpec[];
  /** A tool by API name or canonical ref; undefined for anything not in the index. */
  lookup(nameOrRef: string): ToolSpec | undefined;
  /** Groups present in the index, ordered by name, with their tool counts. */
  groups(): GroupSummary[];
  /**
   * Tools matching `query`, best first (ties by API name). With `group`, every tool of that group is
   * returned — matching ones first — so a group can be browsed when the words miss; without a query
   * the group is listed by name. An unknown group yields nothing.
   */
  rank(query: string, group?: string): RankedTool[];
  /** Distinct terms and postings held, for size measurements. */
  stats(): { terms: number; postings: number };
}

export function createToolIndex(tools: readonly ToolSpec[], options: RankingOptions = {}): ToolIndex {
  const stemming = options.stemming ?? true;
  const actions = options.actions ?? true;
  const fields = { ...DEFAULT_FIELDS, ...options.fields };

  const sorted = [...tools].sort((a, b) => compareNames(a.apiName, b.apiName));
  const byName = new Map<string, ToolSpec>();
  for (const tool of sorted) {
    const clash = byName.get(tool.apiName);
    if (clash) throw new Error(`discovery index: API name "${tool.apiName}" is used by both ${clash.ref} and ${tool.ref}`);
    byName.set(tool.apiName, tool);
  }
  for (const tool of sorted) if (!byName.has(tool.ref)) byName.set(tool.ref, tool);

  const groupText = new Map<string, string[]>();
  for (const tool of sorted) {
    const text = options.groupDescriptions?.[tool.group];
    if (text !== undefined && !groupText.has(tool.group)) groupText.set(tool.group, analyze(text, { stemming, compounds: true }));
  }
  const docs = sorted.map((tool) => toolDocument(tool, stemming, actions, groupText.get(tool.group) ?? []));
  const scorer: Bm25Scorer = createBm25Scorer(docs, fields, options.k1);
  const indexTerms: IndexTerms = {
    has: (term) => scorer.has(term),
    // Plain words of the index, the candidates a misspelt query word is corrected to.
    spellings: createSpellingIndex([...scorer.terms()].filter((t) => /^[a-z]+$/.test(t))),
  };
  const queryOptions: QueryOptions = {
    stemming,
    expansion: options.expansion ?? true,
    supplements: { jargon: options.jargon ?? true, saas: options.saas ?? true, idioms: options.idioms ?? true, wordnet: options.wordnet ?? false },
    expansionWeight: options.expansionWeight ?? DEFAULT_EXPANSION_WEIGHT,
    actions,
    actionWeight: options.actionWeight ?? DEFAULT_ACTION_WEIGHT,
    typos: options.typos ?? true,
    typoWeight: options.typoWeight ?? DEFAULT_TYPO_WEIGHT,
    entities: options.entities ?? true,
    questionWeight: options.questionWeight ?? DEFAULT_QUESTION_WEIGHT,
    phraseWeight: options.phraseWeight ?? DEFAULT_PHRASE_WEIGHT,
  };

  const groupCounts = new Map<string, number>();
  for (const tool of sorted) groupCounts.set(tool.group, (groupCounts.get(tool.group) ?? 0) + 1);
  const groupList = [...groupCounts].map(([name, count]) => ({ name, count })).sort((a, b) => compareNames(a.name, b.name));

  return {
    size: sorted.length,
    tools: () => sorted,
    lookup: (nameOrRef) => byName.get(nameOrRef),
    groups: () => groupList.map((g) => ({ ...g })),
    stats: () => scorer.size(),
    rank(query, group) {
      let concepts = queryConcepts(query, indexTerms, queryOptions);
      if (options.combine === 'sum') concepts = concepts.flatMap((c) => [...c].map(([t, w]) => new Map([[t, w]])));
      const scores = concepts.length > 0 ? scorer.scoreConcepts(concepts) : new Float64Array(sorted.length);
      const ranked: RankedTool[] = [];
      sorted.forEach((tool, i) => {
        const score = scores[i] ?? 0;
        if (group !== undefined ? tool.group === group : score > 0) ranked.push({ tool, score });
      });
      // `sorted` is already in name order and Array.prototype.sort is stable, so ties keep it.
      return ranked.sort((a, b) => b.score - a.score);
    },
  };
}

function toolDocument(tool: ToolSpec, stemming: boolean, actions: boolean, groupText: string[]): FieldTerms<ToolField> {
  const params: string[] = [];
  const paramText: string[] = [];
  collectParams(tool.inputSchema, params, paramText, 0);
  const opts = { stemming };
  // Prose may name brands in mixed case ("GitHub"); identifiers are split only.
  const prose = { stemming, compounds: true };
  const parts = nameParts(tool);
  const [lead, details] = splitLead(tool.description);
  return {
    name: analyze(parts.words.join(' '), opts),
    action: actions ? [...actionClasses(parts.verb)] : [],
    group: analyze(tool.group, opts),
    groupText,
    description: analyze(lead, prose),
    details: analyze(details, prose),
    phrases: pairs([...analyze(parts.words.join(' '), opts), '', ...analyze(lead, opts)]),
    params: analyze(params.join(' '), opts),
    paramText: analyze(paramText.join(' '), prose),
  };
}

/** The first sentence of a description, which says what the tool does, and the rest. */
function splitLead(description: string): [string, string] {
  const flat = description.replace(/\s+/g, ' ').trim();
  // A sentence ends at . ! or ? followed by a capital letter, so "e.g. foo" does not end it.
  const end = flat.search(/[.!?](?= [A-Z])/);
  return end >= 0 ? [flat.slice(0, end + 1), flat.slice(end + 2)] : [flat, ''];
}

/** Adjacent term pairs ("pull request" → `pull_request`); an empty term separates runs. */
function pairs(terms: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < terms.length; i++) {
    const a = terms[i - 1];
    const b = terms[i];
    if (a && b) out.push(`${a}_${b}`);
  }
  return out;
}

/** Parameter names, descriptions and enum values, down to nested objects and array items. */
function collectParams(schema: unknown, names: string[], text: string[], depth: number): void {
  if (depth > 3 || !isRecord(schema)) return;
  const properties = schema['properties'];
  if (isRecord(properties)) {
    for (const key of Object.keys(properties).sort()) {
      names.push(key);
      const prop = properties[key];
      if (!isRecord(prop)) continue;
      if (typeof prop['description'] === 'string') text.push(prop['description']);
      const values = prop['enum'];
      if (Array.isArray(values)) for (const v of values) if (typeof v === 'string') text.push(v);
      collectParams(prop, names, text, depth + 1);
    }
  }
  collectParams(schema['items'], names, text, depth + 1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Locale-independent ordering, so results do not depend on the machine's ICU data. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
