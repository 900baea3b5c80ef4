// The config package's public API: load a project into a MissionGraph, check MCP references
// against live servers, render diagnostics, summarize a graph, render an objective at run time.

export { loadConfig, deepFreeze, type LoadOptions, type LoadResult } from './load.js';
export { checkMcpReferences, type McpToolLister, type McpCheckOptions } from './mcpCheck.js';
export { validateProject, type ValidateOptions } from './validateProject.js';
export {
  DIAGNOSTIC_CODES,
  describeCode,
  sortDiagnostics,
  renderDiagnostic,
  renderDiagnostics,
  countSummary,
  diagnosticToJson,
  displayPath,
  type RenderOptions,
} from './diagnostics.js';
export { summarize, modelLabel, type ConfigSummary, type TaskSummary } from './summary.js';
export { renderObjective, type RenderedObjective } from './objective.js';
export { catalogFor, catalogModel, type CatalogModel } from './modelCatalog.js';
export type { Diagnostic, Severity } from './hcl/diagnostic.js';
