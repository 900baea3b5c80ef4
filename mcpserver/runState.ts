// A run as another agent sees it: its status, what it waits for, and once completed the declared
// outputs of its tasks. Read from the store, so any process on the database sees the same answer.

import { requestJson, type RunStore } from '../api/index.js';

export interface RunState {
  run_id: string;
  mission: string;
  status: 'running' | 'waiting' | 'completed' | 'failed' | 'interrupted' | 'stopped';
  outputs?: Record<string, unknown>;
  waiting_for?: Record<string, unknown>[];
  error?: string;
}

export async function readRunState(store: RunStore, runId: string): Promise<RunState | undefined> {
  const run = await store.runs.get(runId);
  if (!run) return undefined;
  const state: RunState = { run_id: run.id, mission: run.mission, status: run.status };
  if (run.status === 'completed') {
    const outputs: Record<string, unknown> = {};
    for (const t of await store.tasks.list(runId)) if (t.output !== undefined && t.output !== null) outputs[t.name] = t.output;
    state.outputs = outputs;
  }
  if (run.status === 'waiting') state.waiting_for = (await store.operatorRequests.list(runId, { pendingOnly: true })).map(requestJson);
  if (run.error !== undefined) state.error = run.error;
  return state;
}

/** The run has ended for good (nothing more will happen without a person resuming it). */
export function isFinal(status: RunState['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'interrupted' || status === 'stopped';
}
