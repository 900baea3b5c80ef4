// A run thread of `squadron serve` (a worker_threads worker): it executes the runs the HTTP thread
// hands it (server/runPool.ts), with the in-process Runner and its own database connections, so a
// run's CPU (loading, the engine, the store's writes) never holds up the thread that answers HTTP.
// It loads the config from the server's config path when it starts and again when told that a
// SIGHUP reload was accepted. Everything it has to say (run ids, endings, notifications, log lines)
// goes back as messages; nothing here prints.

import { readlinkSync } from 'node:fs';
import module from 'node:module';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openProject, SquadronError, type LoadedProject } from '../api/index.js';
import { errorText, type Log } from './log.js';
import { Runner } from './runner.js';
import type { FromThread, RunThreadData, ToThread } from './runThreadProtocol.js';

/** Whether this thread was started as a run thread (the CLI bundle's entry asks before anything else). */
export function isRunThread(data: unknown = workerData): data is RunThreadData {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === 'squadron-run-thread';
}

/** Runs the thread until its parent terminates it. */
export function runThread(): void {
  const port = parentPort;
  const data = workerData as unknown;
  if (!port || !isRunThread(data)) throw new Error('server/runThread.ts runs as a worker thread of squadron serve');
  try {
    module.enableCompileCache();
  } catch {
    // An optimisation only.
  }
  yieldToHttpThread();
  const post = (m: FromThread): void => port.postMessage(m);
  const log: Log = (level, msg, fields) => post({ t: 'log', level, msg, ...(fields ? { fields } : {}) });
  const env: NodeJS.ProcessEnv = { ...data.env };
  let project: LoadedProject | undefined;
  let loadError: unknown;
  const load = (): void => {
    const configPath = data.configPath;
    if (configPath === undefined) {
      loadError = new SquadronError('usage', 'this console has no config (it shows the database alone): start a run with squadron run');
      return;
    }
    try {
      project = openProject(configPath, { env });
      loadError = undefined;
    } catch (error) {
      // The HTTP thread loaded this config a moment ago: the file changed since. Runs started here
      // are refused with the reason until a reload succeeds; resumes load their own config.
      loadError = error;
      log('error', 'run thread could not load the config', { config: configPath, error: errorText(error) });
    }
  };
  load();
  const runner = new Runner({
    db: data.db,
    env,
    log,
    notify: (runId, type, d) => post({ t: 'notify', runId, type, data: d }),
    released: (runId) => post({ t: 'released', runId }),
  });
  const refuse = (req: number, error: unknown): void =>
    post({ t: 'refused', req, message: errorText(error), ...(error instanceof SquadronError ? { code: error.code } : {}) });

  port.on('message', (m: ToThread) => {
    switch (m.t) {
      case 'start': {
        if (!project) return refuse(m.req, loadError ?? new Error('the config is not loaded'));
        let known = m.runId;
        runner.start(project, m.mission, m.inputs, (status) => post({ t: 'ended', runId: known ?? m.runId ?? '', status }), m.runId).then(
          (id) => {
            known = id;
            post({ t: 'started', req: m.req, runId: id });
          },
          (error: unknown) => refuse(m.req, error),
        );
        return;
      }
      case 'resume':
        runner.resume(m.runId, { retryFailed: m.retryFailed, reason: m.reason }).then(
          () => post({ t: 'resumed', req: m.req, runId: m.runId, driving: runner.isDriving(m.runId) }),
          (error: unknown) => refuse(m.req, error),
        );
        return;
      case 'cancel':
        runner.cancel(m.runId);
        return;
      case 'reload':
        load();
        return;
    }
  });
  post({ t: 'ready' });
}

/** How much lower than the HTTP thread a run thread is scheduled (a nice value: 0 is the HTTP thread's). */
const RUN_THREAD_NICENESS = 10;

/**
 * Lowers this thread's scheduling priority below the HTTP thread's: when the machine's cores are
 * all busy, the thread answering requests gets the CPU first and the runs take what is left. Linux
 * schedules threads one by one (setpriority on a thread id, read from /proc/thread-self); elsewhere,
 * or where it is not allowed, the thread keeps the process's priority.
 */
function yieldToHttpThread(): void {
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, RUN_THREAD_NICENESS);
  } catch {
    // Not Linux, or not allowed: the same priority as the HTTP thread.
  }
}
