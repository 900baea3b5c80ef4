// What the MCP server (and the A2A endpoint) need from the process that hosts them: the database, the
// config as last loaded, something that drives runs (the server's Runner), and who the caller is.

import type { LoadedProject, RunStore } from '../api/index.js';

/** Starts, continues and stops runs in this process (`server/runner.ts`'s Runner fits). */
export interface RunDriver {
  start(project: LoadedProject, mission: string | undefined, inputs: Record<string, string>): Promise<string>;
  resume(runId: string, opts: { reason: string }): Promise<void>;
  cancel(runId: string): boolean;
  isDriving(runId: string): boolean;
}

export interface AgentHost {
  store: RunStore;
  project: () => LoadedProject;
  runs: RunDriver;
  /** Recorded as who decided what a caller answered (an elicitation): `mcp:<token name>`. */
  who: string;
  /** The missions this caller may see and run; undefined: every exposed mission. */
  missions?: readonly string[];
  /** How long a tool call without a task waits for its run before answering with the run's handle (ms). */
  waitMs: number;
}

/** Mission inputs as the CLI's `-i key=value` text: strings as they are, anything else as JSON. */
export function inputsAsText(inputs: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}
