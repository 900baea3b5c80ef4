// Waits on a run for a caller that holds its request open: progress as its events arrive, what it
// waits for asked of the caller (an elicitation) and recorded as the operator's decision, the run
// continued after; it answers with the run's state when the run ends, waits on a person the caller
// cannot ask, or the wait runs out (the run goes on: the caller keeps its handle).

import { decide, type DecideAction } from '../api/index.js';
import type { AgentHost } from './host.js';
import { isFinal, readRunState, type RunState } from './runState.js';

/** What the caller decided on one request; undefined: it did not (the request stays pending). */
export type Ask = (request: Record<string, unknown>) => Promise<DecideAction | undefined>;

export interface FollowOptions {
  signal: AbortSignal;
  waitMs: number;
  onProgress?: (count: number, message: string) => Promise<void>;
  ask?: Ask;
  pollMs?: number;
}

export async function followRun(host: AgentHost, runId: string, opts: FollowOptions): Promise<RunState> {
  const deadline = Date.now() + opts.waitMs;
  let afterId = 0;
  let count = 0;
  for (;;) {
    const state = await readRunState(host.store, runId);
    if (!state) throw new Error(`no run ${runId}`);
    if (isFinal(state.status)) return state;
    if (state.status === 'waiting' && !host.runs.isDriving(runId)) {
      const pending = state.waiting_for ?? [];
      if (pending.length > 0) {
        if (!opts.ask) return state;
        for (const request of pending) {
          // A client that cannot answer (an error, a timeout) leaves the request pending, as a cancel does.
          const action = await opts.ask(request).catch(() => undefined);
          if (!action) return (await readRunState(host.store, runId)) ?? state;
          await decide(host.store, runId, action, host.who);
        }
      }
      await continueRun(host, runId);
      if (opts.signal.aborted || Date.now() >= deadline) return (await readRunState(host.store, runId)) ?? state;
      continue;
    }
    if (opts.signal.aborted || Date.now() >= deadline) return state;
    for (const e of await host.store.events.list(runId, { afterId, limit: 500 })) {
      afterId = e.id;
      count += 1;
      await opts.onProgress?.(count, e.task !== undefined ? `${e.type} (${e.task})` : e.type);
    }
    await pause(opts.pollMs ?? 200, opts.signal);
  }
}

/**
 * A run stored `waiting` whose requests are all decided (over MCP, A2A, the CLI or the console) and
 * that nothing drives is continued here; a run another process continues first is left to it.
 */
export async function continueIfDecided(host: AgentHost, runId: string): Promise<void> {
  const run = await host.store.runs.get(runId);
  if (run?.status !== 'waiting' || host.runs.isDriving(runId)) return;
  if ((await host.store.operatorRequests.list(runId, { pendingOnly: true })).length > 0) return;
  await continueRun(host, runId);
}

async function continueRun(host: AgentHost, runId: string): Promise<void> {
  try {
    await host.runs.resume(runId, { reason: 'decided by an agent client' });
  } catch {
    // Busy elsewhere or already continued: the run's state says what happens next.
    await pause(200, new AbortController().signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
  });
}
