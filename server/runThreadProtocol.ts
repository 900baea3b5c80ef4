// The messages between the server's HTTP thread (server/runPool.ts) and its run threads
// (server/runThread.ts), which execute the runs: each side's words, typed once.

import type { LogLevel } from './log.js';

/** The events a notification block may list (server/notifier.ts sends them). */
export type NotifyType = 'run.completed' | 'run.failed' | 'run.stopped' | 'approval.requested' | 'question.asked';

/** What a run thread is given when it starts (worker_threads' workerData). */
export interface RunThreadData {
  role: 'squadron-run-thread';
  db: string;
  /**
   * The config path: the thread loads it as the server did (and again on each accepted SIGHUP).
   * Undefined for a console attached to a database alone: no run is started, a resume loads its own.
   */
  configPath?: string;
  env: Record<string, string>;
}

export type ToThread =
  | { t: 'start'; req: number; mission?: string; inputs: Record<string, string>; runId?: string }
  | { t: 'resume'; req: number; runId: string; retryFailed: boolean; reason: string }
  | { t: 'cancel'; runId: string }
  | { t: 'reload' };

export type FromThread =
  | { t: 'ready' }
  | { t: 'started'; req: number; runId: string }
  | { t: 'resumed'; req: number; runId: string; driving: boolean }
  | { t: 'refused'; req: number; message: string; code?: string }
  | { t: 'ended'; runId: string; status: string }
  | { t: 'released'; runId: string }
  | { t: 'notify'; runId: string; type: NotifyType; data: Record<string, unknown> }
  | { t: 'log'; level: LogLevel; msg: string; fields?: Record<string, unknown> };
