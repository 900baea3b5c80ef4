// A2A v1.0 over runs: the request handler the SDK's JSON-RPC transport calls. A task is a run (its id
// the run's id), its state mapped from the run's (a pending approval or question: INPUT_REQUIRED),
// its artifacts the declared outputs of the run's tasks. A message to a waiting task answers it.

import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { TaskState, Role, type AgentCard, type Message, type Part, type SendMessageRequest, type StreamResponse, type Task, type GetTaskRequest, type CancelTaskRequest, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import { TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError, RequestMalformedError } from '@a2a-js/sdk/errors';
import { decide, type DecideAction, type Mission } from '../api/index.js';
import { continueIfDecided, followRun } from './followRun.js';
import { inputsAsText, type AgentHost } from './host.js';
import { exposedMissions } from './missionTools.js';
import { isFinal, readRunState, type RunState } from './runState.js';

export function a2aState(state: RunState): TaskState {
  switch (state.status) {
    case 'completed':
      return TaskState.TASK_STATE_COMPLETED;
    case 'failed':
    case 'stopped':
      return TaskState.TASK_STATE_FAILED;
    case 'interrupted':
      return TaskState.TASK_STATE_CANCELED;
    case 'waiting':
      return (state.waiting_for?.length ?? 0) > 0 ? TaskState.TASK_STATE_INPUT_REQUIRED : TaskState.TASK_STATE_WORKING;
    default:
      return TaskState.TASK_STATE_WORKING;
  }
}

const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const dataPart = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });

function agentMessage(runId: string, parts: Part[]): Message {
  return { messageId: `${runId}-status`, contextId: runId, taskId: runId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

export function taskOf(state: RunState): Task {
  const waiting = state.waiting_for ?? [];
  const note =
    waiting.length > 0
      ? agentMessage(state.run_id, [textPart(`waiting for: ${waiting.map((r) => `${String(r['kind'])} ${String(r['id'])} (${String(r['tool'])})`).join(', ')}; reply to this task with {"approve": true} or {"answer": "…"}`), dataPart({ waiting_for: waiting })])
      : state.error
        ? agentMessage(state.run_id, [textPart(state.error)])
        : undefined;
  return {
    id: state.run_id,
    contextId: state.run_id,
    status: { state: a2aState(state), message: note, timestamp: new Date().toISOString() },
    artifacts: Object.entries(state.outputs ?? {}).map(([task, output]) => ({ artifactId: task, name: task, description: `the output of task ${task}`, parts: [dataPart(output)], metadata: undefined, extensions: [] })),
    history: [],
    metadata: { mission: state.mission, run_id: state.run_id },
  };
}

export class RunRequestHandler implements A2ARequestHandler {
  constructor(
    private readonly host: AgentHost,
    private readonly card: AgentCard,
    /** The mission this endpoint runs; undefined: the one a message names in metadata.mission (or the only one). */
    private readonly mission: string | undefined,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async sendMessage(params: SendMessageRequest, _context: ServerCallContext): Promise<Task> {
    const runId = await this.accept(params);
    const blocking = params.configuration?.returnImmediately !== true;
    const state = blocking ? await followRun(this.host, runId, { signal: new AbortController().signal, waitMs: this.host.waitMs }) : await this.state(runId);
    return taskOf(state);
  }

  async *sendMessageStream(params: SendMessageRequest, _context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.stream(await this.accept(params));
  }

  async *resubscribe(params: { id: string }, _context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    await this.state(params.id);
    yield* this.stream(params.id);
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    await continueIfDecided(this.host, params.id).catch(() => undefined);
    return taskOf(await this.state(params.id));
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const state = await this.state(params.id);
    if (isFinal(state.status) || !this.host.runs.cancel(params.id)) throw new TaskNotCancelableError(`run ${params.id} is ${state.status} and not driven by this server`);
    const stopped = await followRun(this.host, params.id, { signal: new AbortController().signal, waitMs: 30_000 });
    return taskOf(stopped);
  }

  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    const visible = new Set(this.missions().map((m) => m.name));
    const size = params.pageSize && params.pageSize > 0 ? Math.min(params.pageSize, 100) : 50;
    const tasks: Task[] = [];
    for (const r of await this.host.store.runs.list({ limit: size })) {
      if (!visible.has(r.mission)) continue;
      const state = await readRunState(this.host.store, r.id);
      if (state) tasks.push(taskOf(state));
    }
    return { tasks, nextPageToken: '', pageSize: size, totalSize: tasks.length };
  }

  createTaskPushNotificationConfig(): Promise<never> {
    return Promise.reject(new UnsupportedOperationError('push notifications are not supported: poll GetTask or stream'));
  }
  getTaskPushNotificationConfig(): Promise<never> {
    return this.createTaskPushNotificationConfig();
  }
  listTaskPushNotificationConfigs(): Promise<never> {
    return this.createTaskPushNotificationConfig();
  }
  deleteTaskPushNotificationConfig(): Promise<never> {
    return this.createTaskPushNotificationConfig();
  }

  private missions(): Mission[] {
    const all = exposedMissions(this.host.project(), this.host.missions);
    return this.mission === undefined ? all : all.filter((m) => m.name === this.mission);
  }

  private async state(runId: string): Promise<RunState> {
    const state = await readRunState(this.host.store, runId);
    if (!state || !this.missions().some((m) => m.name === state.mission)) throw new TaskNotFoundError(`no task ${runId}`);
    return state;
  }

  /** Starts a run for a new message, or answers what the message's task waits for; the run's id. */
  private async accept(params: SendMessageRequest): Promise<string> {
    const message = params.message;
    if (!message) throw new RequestMalformedError('a message is required');
    const data = message.parts.map((p) => (p.content?.$case === 'data' ? (p.content.value as unknown) : undefined)).find((v) => v !== undefined && v !== null && typeof v === 'object') as Record<string, unknown> | undefined;
    const text = message.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('\n').trim();
    if (message.taskId !== '') return this.answer(message.taskId, data, text);
    const missions = this.missions();
    const named = (message.metadata?.['mission'] ?? params.metadata?.['mission']) as unknown;
    const mission = typeof named === 'string' ? missions.find((m) => m.name === named) : missions.length === 1 ? missions[0] : undefined;
    if (!mission) throw new RequestMalformedError(`say which mission in metadata.mission (missions: ${missions.map((m) => m.name).join(', ') || 'none'})`);
    const inputs: Record<string, unknown> = { ...(data ?? {}) };
    // Text fills the mission's only required input that the data left out (a plain chat message).
    const open = mission.inputs.filter((i) => i.required && i.default === undefined && inputs[i.name] === undefined);
    if (text !== '' && open.length === 1 && open[0]!.type === 'string') inputs[open[0]!.name] = text;
    return this.host.runs.start(this.host.project(), mission.name, inputsAsText(inputs));
  }

  private async answer(runId: string, data: Record<string, unknown> | undefined, text: string): Promise<string> {
    const state = await this.state(runId);
    const pending = state.waiting_for ?? [];
    const request = pending[0];
    if (!request) throw new RequestMalformedError(`task ${runId} waits for nothing (${state.status})`);
    const id = String(request['id']);
    let action: DecideAction;
    if (request['kind'] === 'approval') {
      const reason = typeof data?.['reason'] === 'string' ? data['reason'] : undefined;
      const approve = data?.['approve'] === true || /^(yes|approve|approved|ok)$/i.test(text);
      action = approve ? { kind: 'approve', ids: [id], all: false, ...(reason ? { reason } : {}) } : { kind: 'deny', id, reason: reason ?? (text || 'denied over A2A') };
    } else {
      const answer = typeof data?.['answer'] === 'string' ? data['answer'] : text;
      action = { kind: 'answer', id, answer: { text: answer } };
    }
    await decide(this.host.store, runId, action, this.host.who);
    await continueIfDecided(this.host, runId);
    return runId;
  }

  private async *stream(runId: string): AsyncGenerator<StreamResponse, void, undefined> {
    let state = await this.state(runId);
    yield { payload: { $case: 'task', value: taskOf(state) } };
    let last = a2aState(state);
    const deadline = Date.now() + this.host.waitMs;
    while (!isFinal(state.status) && last !== TaskState.TASK_STATE_INPUT_REQUIRED && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      state = await this.state(runId);
      const now = a2aState(state);
      if (now === last) continue;
      last = now;
      const task = taskOf(state);
      for (const artifact of task.artifacts) yield { payload: { $case: 'artifactUpdate', value: { taskId: runId, contextId: runId, artifact, append: false, lastChunk: true, metadata: undefined } } };
      yield { payload: { $case: 'statusUpdate', value: { taskId: runId, contextId: runId, status: task.status, metadata: undefined } } };
    }
  }
}
