// MCP Tasks backed by runs: a task's id is its run's id and its state is read from the database, so a
// client comes back to it by id (tasks/get, tasks/result, tasks/cancel) after either side restarted.
// Nothing is kept in memory but the runs this process was asked to cancel.

import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { McpError, ErrorCode, type CallToolResult, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { AgentHost } from './host.js';
import { continueIfDecided } from './followRun.js';
import { readRunState, type RunState } from './runState.js';

/** How often a client is asked to poll (ms). */
const POLL_INTERVAL_MS = 500;

export function taskStatus(status: RunState['status'], pending: number): Task['status'] {
  switch (status) {
    case 'completed':
      return 'completed';
    case 'failed':
    case 'stopped':
      return 'failed';
    case 'interrupted':
      return 'cancelled';
    case 'waiting':
      return pending > 0 ? 'input_required' : 'working';
    default:
      return 'working';
  }
}

/** The result of a mission's tool call for a run in `state`. */
export function runResult(state: RunState): CallToolResult {
  const { mission: _mission, ...structured } = state;
  const lines = [`run ${state.run_id}: ${state.status}`];
  if (state.waiting_for && state.waiting_for.length > 0) lines.push(`waiting for a person: ${state.waiting_for.map((r) => `${String(r['kind'])} ${String(r['id'])} (${String(r['tool'])})`).join(', ')}; answer with \`squadron approve|deny|answer ${state.run_id}\` or come back to this run by its id`);
  else if (state.status === 'running') lines.push(`still running: come back to it with get_run_details {"run_id": "${state.run_id}"} or tasks/get`);
  if (state.error) lines.push(`error: ${state.error}`);
  if (state.outputs && Object.keys(state.outputs).length > 0) lines.push(JSON.stringify(state.outputs, null, 2));
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured as Record<string, unknown>, isError: state.status === 'failed' };
}

export class RunTaskStore implements TaskStore {
  private readonly cancelling = new Set<string>();

  constructor(private readonly host: () => AgentHost) {}

  async task(runId: string): Promise<Task | null> {
    const host = this.host();
    const state = await readRunState(host.store, runId);
    if (!state || (host.missions !== undefined && !host.missions.includes(state.mission))) return null;
    const run = await host.store.runs.get(runId);
    let status = taskStatus(state.status, state.waiting_for?.length ?? 0);
    if (this.cancelling.has(runId) && status === 'working') status = 'cancelled';
    const task: Task = {
      taskId: runId,
      status,
      ttl: null,
      createdAt: run?.startedAt ?? new Date().toISOString(),
      lastUpdatedAt: run?.finishedAt ?? new Date().toISOString(),
      pollInterval: POLL_INTERVAL_MS,
    };
    if (status === 'input_required') task.statusMessage = `waiting for: ${(state.waiting_for ?? []).map((r) => `${String(r['kind'])} ${String(r['id'])}`).join(', ')}`;
    else if (state.error) task.statusMessage = state.error;
    return task;
  }

  createTask(): Promise<Task> {
    // Tasks are created by starting a run (missionCall), never from the protocol's store.
    return Promise.reject(new McpError(ErrorCode.InternalError, 'tasks are created by calling a mission tool'));
  }

  async getTask(taskId: string): Promise<Task | null> {
    // A run whose requests were all decided elsewhere (the CLI, the console) continues when looked at.
    await continueIfDecided(this.host(), taskId).catch(() => undefined);
    return this.task(taskId);
  }

  async storeTaskResult(): Promise<void> {
    // A task's result is its run's, in the database.
  }

  async getTaskResult(taskId: string): Promise<CallToolResult> {
    const state = await readRunState(this.host().store, taskId);
    if (!state) throw new McpError(ErrorCode.InvalidParams, `no run ${taskId}`);
    return runResult(state);
  }

  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status !== 'cancelled') return;
    const host = this.host();
    if (!host.runs.cancel(taskId)) throw new McpError(ErrorCode.InvalidRequest, `run ${taskId} is not driven by this server; stop it where it runs`);
    this.cancelling.add(taskId);
  }

  async listTasks(): Promise<{ tasks: Task[] }> {
    const host = this.host();
    const runs = await host.store.runs.list({ limit: 50 });
    const tasks: Task[] = [];
    for (const r of runs) {
      if (host.missions !== undefined && !host.missions.includes(r.mission)) continue;
      const t = await this.task(r.id);
      if (t) tasks.push(t);
    }
    return { tasks };
  }
}
