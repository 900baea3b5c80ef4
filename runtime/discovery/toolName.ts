// The verb + object structure of a tool name. API names repeat their namespace (`tools_crm_…`,
// `mcp_github_…`) which the group field already indexes; what is left is usually verb_object
// (`create_invoice`, `get_time_off_balance`), the most precise description of the tool there is.

import type { ToolSpec } from '../tools/types.js';
import { splitWords } from './tokenize.js';

/** Leading words of a ref that say where a tool comes from, not what it does. */
const SOURCE_WORDS = new Set(['tools', 'builtins', 'mcp', 'plugins']);

export interface NameParts {
  /** The name's words without the namespace, e.g. ["create", "invoice"]; never empty. */
  words: string[];
  /** The first of them, which tool naming conventions make the verb ("create"). */
  verb: string;
}

/**
 * Strips from the name the source word and then the group's own words, in order, as long as they
 * match; if that would leave nothing (a tool named like its group) the last word is kept.
 */
export function nameParts(tool: Pick<ToolSpec, 'ref' | 'group'>): NameParts {
  const all = splitWords(tool.ref);
  const group = splitWords(tool.group);
  let i = 0;
  if (all[0] !== undefined && SOURCE_WORDS.has(all[0]) && group[0] !== all[0]) i = 1;
  for (const g of group) {
    if (all[i] !== g || i >= all.length - 1) break;
    i++;
  }
  const words = all.length > 0 ? all.slice(Math.min(i, all.length - 1)) : [tool.ref.toLowerCase()];
  return { words, verb: words[0] ?? '' };
}
