// The search_tools handler: validates the model's input, ranks the index, and returns one page of at
// most PAGE_SIZE results as compact JSON text. Nothing matching yields an explicit no_matches result
// listing the groups the model can browse instead. Everything comes from the index, so from the
// authorized set only.

import type { ToolResult } from '../tools/types.js';
import { textResult } from '../tools/types.js';
import { PAGE_SIZE, SEARCH_TOOLS, describeIssues, searchToolsInput } from './definitions.js';
import type { GroupSummary, ToolIndex } from './toolIndex.js';

export interface SearchHit {
  name: string;
  description: string;
  group: string;
}

export type SearchResponse =
  | { results: SearchHit[]; page: number; total: number; next_page?: number }
  | { no_matches: true; groups: GroupSummary[] };

const DESCRIPTION_CAP = 120;

export function searchTools(index: ToolIndex, input: unknown): ToolResult {
  const parsed = searchToolsInput.safeParse(input ?? {});
  if (!parsed.success) return textResult(`${SEARCH_TOOLS}: invalid input: ${describeIssues(parsed.error)}`, true);
  const query = (parsed.data.query ?? '').trim();
  const group = parsed.data.group?.trim() || undefined;
  const page = parsed.data.page ?? 1;

  const knownGroup = group === undefined || index.groups().some((g) => g.name === group);
  const ranked = knownGroup && (query !== '' || group !== undefined) ? index.rank(query, group) : [];
  if (ranked.length === 0) return json({ no_matches: true, groups: index.groups() });

  const lastPage = Math.ceil(ranked.length / PAGE_SIZE);
  if (page > lastPage) {
    return textResult(`${SEARCH_TOOLS}: page ${page} is past the last page (${lastPage}) of these results.`, true);
  }
  const start = (page - 1) * PAGE_SIZE;
  const results = ranked.slice(start, start + PAGE_SIZE).map(({ tool }) => ({
    name: tool.apiName,
    description: oneLine(tool.description),
    group: tool.group,
  }));
  return json({ results, page, total: ranked.length, ...(page < lastPage ? { next_page: page + 1 } : {}) });
}

function json(response: SearchResponse): ToolResult {
  return textResult(JSON.stringify(response));
}

/** The first sentence of a description, capped at a word boundary. */
export function oneLine(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  // A sentence ends at . ! or ? followed by a capital letter, so "e.g. foo" does not end it.
  const end = flat.search(/[.!?](?= [A-Z])/);
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat;
  if (sentence.length <= DESCRIPTION_CAP) return sentence;
  const cut = sentence.slice(0, DESCRIPTION_CAP - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DESCRIPTION_CAP / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}
