// Progressive tool discovery for workers holding many tools: a search index over exactly the task's
// authorized tools, the search_tools / get_tool_schema handlers, per-session loaded state and the
// prompt contract (runtime/agents/agentToolbox.ts assembles them into a worker's toolbox). Pure functions and objects; no I/O at search time.

export {
  createToolIndex,
  DEFAULT_FIELDS,
  DEFAULT_EXPANSION_WEIGHT,
  DEFAULT_ACTION_WEIGHT,
  DEFAULT_TYPO_WEIGHT,
  DEFAULT_QUESTION_WEIGHT,
  DEFAULT_PHRASE_WEIGHT,
} from './toolIndex.js';
export type { ToolIndex, RankingOptions, RankedTool, GroupSummary, ToolField } from './toolIndex.js';
export { searchTools, oneLine } from './searchTools.js';
export type { SearchHit, SearchResponse } from './searchTools.js';
export { getToolSchema, unknownToolResult } from './toolSchema.js';
export { createDiscoveryState } from './state.js';
export type { DiscoveryState } from './state.js';
export {
  SEARCH_TOOLS,
  GET_TOOL_SCHEMA,
  PAGE_SIZE,
  discoveryToolDefinitions,
  shouldUseDiscovery,
} from './definitions.js';
export type { DiscoveryPolicy } from './definitions.js';
export { renderDiscoveryContract, contractGroups } from './contract.js';
export type { ContractGroup } from './contract.js';
