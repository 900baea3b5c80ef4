// The runs this server process drives: started from the API, resumed from the API, or recovered
// after a crash. Each gets its own abort controller (cancel) and is awaited on drain. Everything goes
// through api/: the server runs missions exactly as `squadron run` and `squadron resume` do.

import { resume, run, SquadronError, type LoadedProject, type RunEvent } from '../api/index.js';
import { errorText, type Log } from './log.js';
import type { NotifyType } from './runThreadProtocol.js';

export interface RunnerOptions {
  db: string;
  env: NodeJS.ProcessEnv;
  log: Log;
  /** Told the run's ending and what it asks its operator (notification blocks). */
  notify?: (runId: string, type: NotifyType, data: Record<string, unknown>) => void;
  /** Told once a run this runner drove is no longer its own (ended, or stopped with an error). */
  released?: (runId: string) => void;
}

const ENDINGS: Record<string, NotifyType> = { completed: 'run.completed', failed: 'run.failed', interrupted: 'run.stopped' };

interface Driven {
  controller: AbortController;
  done: Promise<void>;
}

export class Runner {
  private readonly driven = new Map<string, Driven>();
  /** Run ids given to start() whose run is not stored yet (accepted webhook deliveries). */
  private readonly starting = new Set<string>();

  constructor(private readonly opts: RunnerOptions) {}

  /**
   * Starts a run of `mission` and resolves with its id once it is stored; the run goes on in the
   * background. With `runId`, the run is stored under that id (refused, run_busy, if it already is).
   */
  start(project: LoadedProject, mission: string | undefined, inputs: Record<string, string>, onEnd?: (status: string) => void, runId?: string): Promise<string> {
    const controller = new AbortController();
    if (runId !== undefined) this.starting.add(runId);
    return new Promise<string>((resolveId, reject) => {
      let known: string | undefined;
      const finished = run({
        config: project,
        ...(mission !== undefined ? { mission } : {}),
        ...(runId !== undefined ? { runId } : {}),
        inputs,
        db: this.opts.db,
        env: this.opts.env,
        signal: controller.signal,
        onEvent: (e) => this.observe(known, e),
        onRunId: (id) => {
          known = id;
          this.track(id, controller, finished.then(() => undefined, () => undefined));
          this.starting.delete(id);
          this.opts.log('info', 'run started', { run_id: id, mission: project.graph.missions.length === 1 ? project.graph.missions[0]!.name : mission });
          resolveId(id);
        },
      });
      finished.then(
        (report) => {
          this.opts.log('info', 'run ended', { run_id: report.runId, status: report.status });
          this.ended(report.runId, report.status);
          onEnd?.(report.status);
        },
        (error: unknown) => {
          if (runId !== undefined) this.starting.delete(runId);
          if (known === undefined) reject(error);
          else {
            this.opts.log('error', 'run stopped with an error', { run_id: known, error: errorText(error) });
            onEnd?.('failed');
          }
        },
      );
    });
  }

  /**
   * Continues `runId` in the background (`squadron resume`'s checks and ledger guarantees); resolves
   * once it is this process's to continue, rejects when refused (busy elsewhere, failed, a secret
   * missing).
   */
  resume(runId: string, opts: { retryFailed?: boolean; reason: string }): Promise<void> {
    if (this.driven.has(runId)) return Promise.reject(new SquadronError('run_busy', `run ${runId} is already running in this server`));
    const controller = new AbortController();
    return new Promise<void>((started, reject) => {
      let began = false;
      const finished = resume({
        runId,
        db: this.opts.db,
        env: this.opts.env,
        signal: controller.signal,
        retryFailed: Boolean(opts.retryFailed),
        onEvent: (e) => this.observe(runId, e),
        onStart: () => {
          began = true;
          this.track(runId, controller, finished.then(() => undefined, () => undefined));
          this.opts.log('info', 'run resumed', { run_id: runId, reason: opts.reason });
          started();
        },
      });
      finished.then(
        (report) => {
          this.opts.log('info', 'run ended', { run_id: runId, status: report.status });
          this.ended(runId, report.status);
          if (!began) started();
        },
        (error: unknown) => {
          if (!began) reject(error);
          else this.opts.log('error', 'run stopped with an error', { run_id: runId, error: errorText(error) });
        },
      );
    });
  }

  /** Stops a run this process drives as Ctrl-C does (status `interrupted`, resumable); false if it drives no such run. */
  cancel(runId: string): boolean {
    const d = this.driven.get(runId);
    if (!d) return false;
    d.controller.abort();
    return true;
  }

  isDriving(runId: string): boolean {
    return this.driven.has(runId) || this.starting.has(runId);
  }

  get count(): number {
    return this.driven.size;
  }

  /** Resolves when every driven run has ended, or after `ms` (the rest are left to resume: their leases lapse). */
  async drain(ms: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((done) => (timer = setTimeout(done, ms)));
    await Promise.race([Promise.all([...this.driven.values()].map((d) => d.done)), timeout]);
    clearTimeout(timer);
    return this.driven.size;
  }

  private observe(runId: string | undefined, e: RunEvent): void {
    if (runId === undefined || e.type !== 'operator.requested') return;
    this.opts.notify?.(runId, e.kind === 'approval' ? 'approval.requested' : 'question.asked', { request_id: e.requestId, task: e.task, tool: e.tool });
  }

  private ended(runId: string, status: string): void {
    const type = ENDINGS[status];
    if (type) this.opts.notify?.(runId, type, { status });
  }

  private track(id: string, controller: AbortController, done: Promise<void>): void {
    const entry: Driven = {
      controller,
      done: done.finally(() => {
        this.driven.delete(id);
        this.opts.released?.(id);
      }),
    };
    this.driven.set(id, entry);
  }
}
