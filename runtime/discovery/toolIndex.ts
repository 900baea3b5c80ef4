// The search index over one task's authorized tools. It holds exactly the ToolSpecs it was given —
// a tool outside them cannot be ranked, listed, looked up or counted — and ranks them for a query
// with BM25F over name, group, description and parameters, plus WordNet query expansion.

import type { ToolSpec } from '../tools/types.js';
import { createBm25Scorer, type Bm25Scorer, type FieldParams, type FieldTerms } from './bm25.js';
import { expandQuery } from './thesaurus/thesaurus.js';
import { analyze, isStopWord, splitWords } from './tokenize.js';
import { stem } from './stem.js';

export type ToolField = 'name' | 'group' | 'groupText' | 'description' | 'params' | 'paramText';

/** Knobs for the ranking; the defaults are what search_tools uses. Benchmarks switch parts off. */
export interface RankingOptions {
  /** Porter-stem index and query terms (default true). */
  stemming?: boolean;
  /** Expand queries with the thesaurus (default true); its tables are stemmed, so keep stemming on. */
  expansion?: boolean;
  /** Include the hand-written jargon supplement in the expansion (default true). */
  jargon?: boolean;
  /** Weight of a strong thesaurus term relative to a typed word (weak links get half). */
  expansionWeight?: number;
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
  group: { weight: 1.5, b: 0.3 },
  groupText: { weight: 0.5, b: 0.5 },
  description: { weight: 1, b: 0.75 },
  params: { weight: 0.5, b: 0.5 },
  paramText: { weight: 0.3, b: 0.75 },
};
export const DEFAULT_EXPANSION_WEIGHT = 0.4;

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
}

export function createToolIndex(tools: readonly ToolSpec[], options: RankingOptions = {}): ToolIndex {
  const stemming = options.stemming ?? true;
  const expansion = options.expansion ?? true;
  const jargon = options.jargon ?? true;
  const alpha = options.expansionWeight ?? DEFAULT_EXPANSION_WEIGHT;
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
    if (text !== undefined && !groupText.has(tool.group)) groupText.set(tool.group, analyze(text, { stemming }));
  }
  const docs = sorted.map((tool) => toolDocument(tool, stemming, groupText.get(tool.group) ?? []));
  const scorer: Bm25Scorer = createBm25Scorer(docs, fields, options.k1);

  const groupCounts = new Map<string, number>();
  for (const tool of sorted) groupCounts.set(tool.group, (groupCounts.get(tool.group) ?? 0) + 1);
  const groupList = [...groupCounts].map(([name, count]) => ({ name, count })).sort((a, b) => compareNames(a.name, b.name));

  function queryTerms(query: string): Map<string, number> {
    const words = splitWords(query);
    const terms = new Map<string, number>();
    for (const word of words) if (!isStopWord(word)) terms.set(stemming ? stem(word) : word, 1);
    if (expansion) {
      for (const [term, strength] of expandQuery(words, isStopWord, jargon).terms) {
        if (!terms.has(term)) terms.set(term, alpha * strength);
      }
    }
    return terms;
  }

  return {
    size: sorted.length,
    tools: () => sorted,
    lookup: (nameOrRef) => byName.get(nameOrRef),
    groups: () => groupList.map((g) => ({ ...g })),
    rank(query, group) {
      const terms = queryTerms(query);
      const scores = terms.size > 0 ? scorer.score(terms) : new Float64Array(sorted.length);
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

function toolDocument(tool: ToolSpec, stemming: boolean, groupText: string[]): FieldTerms<ToolField> {
  const params: string[] = [];
  const paramText: string[] = [];
  collectParams(tool.inputSchema, params, paramText, 0);
  const opts = { stemming };
  return {
    name: analyze(tool.apiName, opts),
    group: analyze(tool.group, opts),
    groupText,
    description: analyze(tool.description, opts),
    params: analyze(params.join(' '), opts),
    paramText: analyze(paramText.join(' '), opts),
  };
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
