// Runs: one row per execution of a mission, with its inputs (redacted), status and error.

import type { RunBudget, RunConfig, RunRow, RunStatus, RunSummary, RunVariables, WorkspaceIdentity } from '../rows.js';

export interface RunsRepo {
  /** `id` defaults to a new `run_…` id; `options`, `config` and `variables` are stored as given (redacted). */
  create(r: {
    id?: string;
    mission: string;
    configPath: string;
    inputs: Record<string, unknown>;
    options?: Record<string, unknown>;
    config?: RunConfig;
    variables?: RunVariables;
  }): Promise<RunRow>;
  /**
   * Replaces the config and variables the run runs with; with `changes`, also records (appends) that
   * a resume went ahead although they differed from the stored ones.
   */
  updateConfig(id: string, r: { config: RunConfig; variables: RunVariables; changes?: string[] }): Promise<void>;
  get(id: string): Promise<RunRow | undefined>;
  /** Newest first, with usage totals, cost and task counts. */
  list(opts?: { limit?: number; mission?: string }): Promise<RunSummary[]>;
  /** Ids of the runs stored `running`, oldest first (the candidates of a recovery pass: one light read, not every run's summary). */
  listRunning(limit: number): Promise<{ id: string; mission: string }[]>;
  /** Sets finished_at for terminal states and clears it (and the error) for 'running'. */
  setStatus(id: string, status: RunStatus, error?: string): Promise<void>;
  /** Records which folder the run's workspace is (at creation, and when a resume accepts a new one). */
  setWorkspace(id: string, workspace: WorkspaceIdentity): Promise<void>;
  /** Records the run's budget limits and time spent (one read for `runs`). */
  setBudget(id: string, budget: RunBudget): Promise<void>;
  latestForMission(mission: string, configPath: string): Promise<RunRow | undefined>;
  /**
   * The run's trace context (telemetry): stores `candidate` unless one is stored already, and returns
   * the stored one, so the first process to trace a run sets it and every other continues it.
   */
  claimTraceContext(id: string, candidate: string): Promise<string>;
  /** Deletes the run and, by the foreign keys' cascade, every row of it; false when there was none. */
  remove(id: string): Promise<boolean>;
}
