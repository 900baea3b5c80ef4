// The one definition of what lives in a project's `.squadron/` folder beside its config: the
// database, the run logs, the file tools' workspaces and validate's cache of MCP tool lists. Plain
// path arithmetic, so every layer (the CLI's start-up included) can use it without loading more.

import { join } from 'node:path';

export const SQUADRON_DIR = '.squadron';

/** The project's database, where `run` stores its runs unless told otherwise. */
export function databasePath(projectRoot: string): string {
  return join(projectRoot, SQUADRON_DIR, 'squadron.db');
}

/** A run's structured log. */
export function runLogPath(projectRoot: string, runId: string): string {
  return join(projectRoot, SQUADRON_DIR, 'logs', `${runId}.jsonl`);
}

/** The folder a run's file tools work in, unless the run names another. */
export function workspacePath(projectRoot: string, runId: string): string {
  return join(projectRoot, SQUADRON_DIR, 'workspaces', runId);
}

/** Where validate keeps the tool lists of MCP servers, by config hash. */
export function mcpToolCacheDir(projectRoot: string): string {
  return join(projectRoot, SQUADRON_DIR, 'mcp-tools');
}
