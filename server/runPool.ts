// The runs `squadron serve` drives, executed off the HTTP thread: a few run threads
// (server/runThread.ts, worker_threads with their own database connections) execute them, so a
// burst of webhook deliveries is answered while the runs they start are loading and stepping.
// At most `maxRuns` runs are driven (or being started) at once; further starts wait their turn in
// order (a webhook delivery's row stays stored until its run is, so a server that stops meanwhile
// leaves it to the next). It offers what the in-process Runner did: start, resume, cancel, drain.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { newRunId, SquadronError, type LoadedProject, type SquadronErrorCode } from '../api/index.js';
import { packageRoot } from '../core/assets.js';
import { errorText, type Log } from './log.js';
import type { FromThread, NotifyType, RunThreadData, ToThread } from './runThreadProtocol.js';

export interface RunPoolOptions {
  db: string;
  /** Undefined when the server has no config (a console attached to a database alone). */
  configPath?: string;
  env: NodeJS.ProcessEnv;
  log: Log;
  /** Runs driven at once (`serve --max-runs`). */
  maxRuns: number;
  /** Run threads (default: one per core beyond the HTTP thread's, 1 to 4). */
  threads: number;
  notify?: (runId: string, type: NotifyType, data: Record<string, unknown>) => void;
}

interface Thread {
  worker: Worker;
  /** Resolves once the thread has loaded the config and listens. */
  ready: Promise<void>;
  /** Runs it drives, and requests it was sent and has not answered. */
  load: number;
  exited: boolean;
}

interface Request {
  thread: Thread;
  runId?: string;
  onEnd?: (status: string) => void;
  resolve: (runId: string) => void;
  reject: (error: unknown) => void;
}

/** A start or resume refused while the server drains: left for the next server, never settled as refused. */
export class DrainingError extends Error {}

export class RunPool {
  private readonly threads: Thread[] = [];
  private readonly driven = new Map<string, { thread: Thread; onEnd?: (status: string) => void }>();
  /** Run ids given to start() or resume() whose run is not driven here yet (queued or starting). */
  private readonly starting = new Set<string>();
  private readonly requests = new Map<number, Request>();
  /** Released before their start was announced (a run that ended at once). */
  private readonly releasedEarly = new Set<string>();
  private readonly waiting: Array<{ go: () => void; stop: (error: unknown) => void }> = [];
  private slotsUsed = 0;
  private nextReq = 1;
  private closed = false;
  private readonly idle = new Set<() => void>();

  constructor(private readonly opts: RunPoolOptions) {
    for (let i = 0; i < Math.max(1, opts.threads); i += 1) this.threads.push(this.spawn());
  }

  /** Starts a run of `mission` (of the config as last reloaded) and resolves with its id once it is stored. */
  async start(_project: LoadedProject, mission: string | undefined, inputs: Record<string, string>, onEnd?: (status: string) => void, given?: string): Promise<string> {
    // The id is chosen here, so the run counts as this server's (isDriving) from the moment its row
    // is stored, before its thread has taken its lease: the recovery pass must not take it for a crashed one.
    const runId = given ?? (await newRunId());
    await this.reserve(runId);
    return this.send({ t: 'start', inputs, runId, ...(mission !== undefined ? { mission } : {}) }, { runId, ...(onEnd ? { onEnd } : {}) });
  }

  /** Counts `runId` as starting and waits for a free run slot (--max-runs); forgets it when none comes (a drain). */
  private async reserve(runId: string): Promise<void> {
    this.starting.add(runId);
    try {
      await this.slot();
    } catch (error) {
      this.starting.delete(runId);
      throw error;
    }
  }

  /** Continues `runId` on a run thread; resolves once it is this server's to continue, rejects when refused. */
  async resume(runId: string, opts: { retryFailed?: boolean; reason: string }): Promise<void> {
    if (this.driven.has(runId) || this.starting.has(runId)) throw new SquadronError('run_busy', `run ${runId} is already running in this server`);
    await this.reserve(runId);
    await this.send({ t: 'resume', runId, retryFailed: Boolean(opts.retryFailed), reason: opts.reason }, { runId });
  }

  /** Stops a run this server drives as Ctrl-C does (status `interrupted`, resumable); false if it drives no such run. */
  cancel(runId: string): boolean {
    const d = this.driven.get(runId);
    if (!d) return false;
    this.post(d.thread, { t: 'cancel', runId });
    return true;
  }

  isDriving(runId: string): boolean {
    return this.driven.has(runId) || this.starting.has(runId);
  }

  get count(): number {
    return this.driven.size;
  }

  /** Runs waiting for a free slot (--max-runs). */
  get queued(): number {
    return this.waiting.length;
  }

  /** The config was reloaded (SIGHUP): the run threads load it too, for the runs started from now on. */
  reloaded(): void {
    for (const thread of this.threads) if (!thread.exited) this.post(thread, { t: 'reload' });
  }

  /**
   * Refuses the starts still waiting for a slot (left to the next server), then resolves when every
   * driven run has ended, or after `ms`; returns how many are left (their leases lapse, the next
   * server resumes them).
   */
  async drain(ms: number): Promise<number> {
    for (const w of this.waiting.splice(0)) w.stop(new DrainingError('the server is shutting down'));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((done) => (timer = setTimeout(done, ms)));
    const quiet = new Promise<void>((done) => {
      const check = (): void => {
        if (this.driven.size === 0 && this.requests.size === 0) {
          this.idle.delete(check);
          done();
        }
      };
      this.idle.add(check);
      check();
    });
    await Promise.race([quiet, timeout]);
    clearTimeout(timer);
    return this.driven.size;
  }

  /** Stops the run threads (what they still run is left to resume, as after a crash). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }

  private slot(): Promise<void> {
    if (this.closed) return Promise.reject(new DrainingError('the server is shutting down'));
    if (this.slotsUsed < this.opts.maxRuns) {
      this.slotsUsed += 1;
      return Promise.resolve();
    }
    return new Promise<void>((go, stop) => this.waiting.push({ go, stop }));
  }

  private freeSlot(): void {
    const next = this.waiting.shift();
    if (next) next.go(); // the slot passes on
    else this.slotsUsed -= 1;
    for (const check of [...this.idle]) check();
  }

  private send(message: Omit<Extract<ToThread, { t: 'start' }>, 'req'> | Omit<Extract<ToThread, { t: 'resume' }>, 'req'>, r: Omit<Request, 'thread' | 'resolve' | 'reject'>): Promise<string> {
    const thread = this.threads.filter((t) => !t.exited).sort((a, b) => a.load - b.load)[0];
    if (!thread) {
      this.freeSlot();
      if (r.runId !== undefined) this.starting.delete(r.runId);
      return Promise.reject(new Error('no run thread is running'));
    }
    const req = this.nextReq++;
    thread.load += 1;
    return new Promise<string>((resolve, reject) => {
      this.requests.set(req, { thread, ...r, resolve, reject });
      this.post(thread, { ...message, req } as ToThread);
    });
  }

  private post(thread: Thread, m: ToThread): void {
    thread.worker.postMessage(m);
  }

  private spawn(): Thread {
    const data: RunThreadData = { role: 'squadron-run-thread', db: this.opts.db, ...(this.opts.configPath !== undefined ? { configPath: this.opts.configPath } : {}), env: plainEnv(this.opts.env) };
    const worker = new Worker(runThreadFile(), { workerData: data, env: data.env });
    let ready = (): void => undefined;
    const thread: Thread = { worker, ready: new Promise<void>((done) => (ready = done)), load: 0, exited: false };
    worker.on('message', (m: FromThread) => (m.t === 'ready' ? ready() : this.received(thread, m)));
    worker.once('exit', () => ready());
    worker.on('error', (error) => this.opts.log('error', 'a run thread failed', { error: errorText(error) }));
    worker.on('exit', () => this.lost(thread));
    return thread;
  }

  /** Resolves once every run thread has loaded the config (so it loads the file the server just did). */
  async ready(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.ready));
  }

  private received(thread: Thread, m: Exclude<FromThread, { t: 'ready' }>): void {
    switch (m.t) {
      case 'log':
        return this.opts.log(m.level, m.msg, m.fields);
      case 'notify':
        return this.opts.notify?.(m.runId, m.type, m.data);
      case 'started':
      case 'resumed': {
        const r = this.take(m.req);
        if (!r) return;
        this.starting.delete(m.runId);
        if (m.t === 'resumed' && !m.driving) {
          // It ended (or was refused as already complete) without being continued here.
          this.settle(thread);
        } else if (this.releasedEarly.delete(m.runId)) {
          this.settle(thread);
        } else this.driven.set(m.runId, { thread, ...(r.onEnd ? { onEnd: r.onEnd } : {}) });
        return r.resolve(m.runId);
      }
      case 'refused': {
        const r = this.take(m.req);
        if (!r) return;
        if (r.runId !== undefined) this.starting.delete(r.runId);
        this.settle(thread);
        return r.reject(m.code !== undefined ? new SquadronError(m.code as SquadronErrorCode, m.message) : new Error(m.message));
      }
      case 'ended':
        return this.driven.get(m.runId)?.onEnd?.(m.status);
      case 'released':
        if (!this.driven.delete(m.runId)) {
          this.releasedEarly.add(m.runId);
          return;
        }
        return this.settle(thread);
    }
  }

  private take(req: number): Request | undefined {
    const r = this.requests.get(req);
    this.requests.delete(req);
    return r;
  }

  private settle(thread: Thread): void {
    thread.load = Math.max(0, thread.load - 1);
    this.freeSlot();
  }

  /** A run thread stopped: its runs' leases lapse (the recovery pass resumes them); a new thread takes its place. */
  private lost(thread: Thread): void {
    thread.exited = true;
    for (const [req, r] of [...this.requests]) {
      if (r.thread !== thread) continue;
      this.requests.delete(req);
      if (r.runId !== undefined) this.starting.delete(r.runId);
      this.freeSlot();
      r.reject(new Error('the run thread stopped'));
    }
    for (const [runId, d] of [...this.driven]) {
      if (d.thread !== thread) continue;
      this.driven.delete(runId);
      this.freeSlot();
    }
    const at = this.threads.indexOf(thread);
    if (this.closed || at < 0) return;
    this.opts.log('error', 'a run thread stopped; its runs will be resumed once their leases lapse; starting another');
    this.threads[at] = this.spawn();
  }
}

/** The run thread's file: the CLI bundle's own (dist/cli/runThread.cjs), else tsc's output. */
function runThreadFile(): string {
  const root = packageRoot();
  const bundled = join(root, 'dist', 'cli', 'runThread.cjs');
  return existsSync(bundled) ? bundled : join(root, 'dist', 'server', 'runThreadMain.js');
}

function plainEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
