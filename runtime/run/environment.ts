// What a run is executed in (the loaded config, where things go, the caller's hooks) and what the
// executing step is asked: the shapes start, resume and execute share.

import type { Mission, MissionGraph, ModelBlock } from '../../config/graph.js';
import type { ModelClient } from '../providers/types.js';
import type { Value } from '../../config/hcl/value.js';
import type { EventBus, RunEvent } from '../kernel/events.js';
import type { Instrument } from './instrument.js';
import type { RunLimits } from '../agents/runContext.js';
import type { RunOptions } from './runOptions.js';
import type { RunConfig } from './runConfig.js';
import type { Limits } from '../budget/limits.js';
import type { OperatorPrompt } from '../operator/types.js';
import type { ToolResult } from '../../core/toolResults.js';

/** Where a run starts from: its tasks, their stored states (a resumed run), and what earlier processes spent. */
export interface RunStart {
  tasks: readonly string[];
  states: ReadonlyMap<string, string>;
  spent: { tokens: number; cost: number };
}

/** A caller's view of a run: every event in order, then closed once the run has finished. */
export interface RunWatcher {
  sink: (event: RunEvent) => void;
  close(): void;
}

export interface RunEnvironment {
  graph: MissionGraph;
  /** The config path the user gave (file or directory), stored with the run for `resume`. */
  configPath: string;
  /** Content hashes of the files the config was loaded from, stored with the run for `resume`. */
  config?: RunConfig | undefined;
  /** A SQLite file path or a PostgreSQL connection string (never stored or logged: it may hold a password). */
  dbPath: string;
  /** Told where the run starts from before its first event; its sink then sees every event (the CLI's progress view). */
  watch?: ((start: RunStart) => RunWatcher) | undefined;
  /** Aborted by the CLI on SIGINT. */
  interrupt: AbortSignal;
  limits?: Partial<RunLimits>;
  /** Test hook: shortens model retry backoff. */
  retryBaseDelayMs?: number;
  /** Test hook: the client of each model block, in place of the provider's (unit tests script the model in process). */
  modelClient?: (block: ModelBlock) => ModelClient;
  /** Receives every event of the run as it happens (the programmatic API's event stream). */
  onEvent?: (event: RunEvent) => void;
  /**
   * On PostgreSQL, aborted when this process hands the run over instead of interrupting it (a worker
   * that stops): its units of work go back to the queue for another runner, and tasks running on
   * other runners go on.
   */
  handOff?: AbortSignal;
  /** On PostgreSQL, whether this process also executes its run's tasks (default true; a worker runs them from its own loop). */
  executeOwnTasks?: boolean;
  /** Asks the operator at a terminal (approvals, questions); without it such calls wait and the run ends `waiting`. */
  operatorPrompt?: OperatorPrompt;
  /** Observes each run's events in this process (the OpenTelemetry export, when configured). */
  instrument?: Instrument;
  /** A test's mocked tools, by ref (squadron test): answered with these results, never executed. */
  toolMocks?: ReadonlyMap<string, ToolResult>;
}


export interface ExecuteRequest {
  runId: string;
  mission: Mission;
  inputs: Record<string, Value>;
  options: RunOptions;
  resumed: boolean;
  /** Writes that need the lease (a resume's config record, task retries), run before the scheduler. */
  onLeased?: (bus: EventBus) => Promise<void>;
  /** Called once the lease is held. */
  onStart?: ((runId: string) => void) | undefined;
  /** `resume --budget`. */
  budget?: Record<string, Limits> | undefined;
}
