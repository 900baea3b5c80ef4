// Renders the discovery contract (prompts/discovery.md): the short worker-prompt section that replaces
// the full tool catalog. It says what the two discovery tools do, the search → schema → call order,
// and lists the groups one line each, sorted by name so the prompt is byte-stable across runs.

import { renderPrompt } from '../../core/promptTemplates.js';
import { GET_TOOL_SCHEMA, SEARCH_TOOLS } from './definitions.js';
import { oneLine } from './searchTools.js';
import { compareNames, type ToolIndex } from './toolIndex.js';

export interface ContractGroup {
  name: string;
  description?: string;
  count: number;
}

export function renderDiscoveryContract(groups: readonly ContractGroup[]): string {
  const sorted = [...groups].sort((a, b) => compareNames(a.name, b.name));
  return renderPrompt('discovery', {
    total: sorted.reduce((sum, g) => sum + g.count, 0),
    search: SEARCH_TOOLS,
    schema: GET_TOOL_SCHEMA,
    groups: sorted.map((g) => ({
      name: g.name,
      count: g.count,
      // An empty string, not undefined: an absent key would be looked up in the outer scope.
      description: g.description ? oneLine(g.description) : '',
    })),
  });
}

/** The index's groups with optional descriptions (toolset descriptions, MCP server summaries). */
export function contractGroups(index: ToolIndex, descriptions: Readonly<Record<string, string>> = {}): ContractGroup[] {
  return index.groups().map((g) => ({ ...g, ...(descriptions[g.name] ? { description: descriptions[g.name] } : {}) }));
}
