// `squadron fork`: a new run that keeps its parent's past and runs only its future. The tasks that
// finished before the fork point are copied (outputs, sessions, ledger: their side effects are never
// executed again); with a turn, the fork task's lead session (its commander, or a direct task's
// worker) is copied up to the request of that turn. The child is then continued as any stopped run is.

import type { Mission } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import { newId, type ForkCopy, type ForkedSession, type ForkPoint, type RunRow, type SessionRow, type Store } from '../../store/index.js';
import { taskOfLabel } from '../../core/sessionLabels.js';
import { parseRunOptions, type RunOptions } from './runOptions.js';
import { runVariables } from './runConfig.js';
import { secretRedactor } from './secretRedactor.js';
import { chatRunRefusal } from './resumeChecks.js';
import { RunRefused } from './runRefused.js';
import { resumeRun, runIsActive, type ResumeOptions, type RunEnvironment, type RunReport } from './run.js';

export interface ForkRequest {
  parentId: string;
  /** The task the fork starts at: it and everything after it runs again. */
  at: string;
  /** Continue the fork task's lead session from the request of this turn (1-based). */
  turn?: number;
  /** Inputs that replace the parent's (already converted by their declared types). */
  inputs: Record<string, Value>;
  /** What differs from the parent, for the record (inputs, variables, config). */
  changes: string[];
  /** Play model responses from this cassette (absolute path); otherwise the future runs live. */
  replay?: string;
  workspaceFor: (runId: string) => string;
  /** Told the child's id once it is stored, before it runs. */
  onForked?: (childId: string) => void;
}

/** Stores the child (one transaction), then continues it; `store` is the open database (left open). */
export async function forkRun(env: RunEnvironment, store: Store, req: ForkRequest, opts: Omit<ResumeOptions, 'opened'> = {}): Promise<RunReport> {
  const parent = await store.runs.get(req.parentId);
  if (!parent) throw new RunRefused(`no run ${req.parentId}`, 'usage');
  if (parent.status === 'running' && (await runIsActive(store, parent.id))) {
    throw new RunRefused(`run ${parent.id} is still running; fork it once it has stopped (or interrupt it first)`, 'usage');
  }
  const chat = chatRunRefusal(parent.id, parent.mission, 'fork');
  if (chat) throw chat;
  const mission = env.graph.missions.find((m) => m.name === parent.mission);
  if (!mission) throw new RunRefused(`run ${parent.id} is of mission "${parent.mission}", which is not in the loaded config`, 'usage');
  if (!mission.tasks.some((t) => t.name === req.at)) {
    throw new RunRefused(`mission "${mission.name}" has no task "${req.at}" (tasks: ${mission.tasks.map((t) => t.name).join(', ')})`, 'usage');
  }
  const childId = newId('run');
  const plan = await forkPlan(store, parent, req, childId);
  const parentOptions = parseRunOptions(parent.id, parent.options);
  const { replay: _replay, record: _record, ...kept } = parentOptions;
  const options: RunOptions = {
    ...kept,
    workspaceDir: req.workspaceFor(childId),
    taskGraph: taskGraphOf(mission),
    ...(req.replay !== undefined ? { replay: req.replay } : {}),
  };
  const redacting = store.withRedactor(secretRedactor(env.graph));
  await redacting.transaction(async (tx) => {
    await tx.runs.create({
      id: childId,
      mission: mission.name,
      configPath: env.configPath,
      inputs: { ...parent.inputs, ...req.inputs },
      options: { ...options },
      ...(env.config ? { config: env.config } : {}),
      variables: runVariables(env.graph.variables),
    });
    await tx.runs.setStatus(childId, 'interrupted');
    await tx.forks.copy(plan);
  });
  req.onForked?.(childId);
  return resumeRun(env, childId, { ...opts, opened: store });
}

/** Which rows the child keeps: tasks that finished before the fork task started, and the cut session. */
async function forkPlan(store: Store, parent: RunRow, req: ForkRequest, childId: string): Promise<ForkCopy> {
  const tasks = await store.tasks.list(parent.id);
  const at = tasks.find((t) => t.name === req.at);
  const copied = tasks
    .filter((t) => t.status === 'completed' && t.name !== req.at && (at?.startedAt === undefined || (t.finishedAt !== undefined && t.finishedAt <= at.startedAt)))
    .map((t) => t.name);
  const keep = new Set(copied);
  const sessions = await store.sessions.listForRun(parent.id);
  const forked: ForkedSession[] = sessions.filter((s) => keep.has(taskOfLabel(s.task))).map((s) => ({ from: s.id, to: newId('ses') }));
  const fork: ForkPoint = { task: req.at, changes: req.changes, copied };
  const plan: ForkCopy = { parentId: parent.id, childId, fork, tasks: copied, sessions: forked };
  if (req.turn === undefined) return plan;
  fork.turn = req.turn;
  forked.push(...(await cutSessions(store, sessions.filter((s) => s.task === req.at), req.at, req.turn)));
  plan.runningTask = req.at;
  return plan;
}

/** The fork task's lead session cut before its `turn`th model response, and its agents' sessions that had finished by then. */
async function cutSessions(store: Store, sessions: SessionRow[], task: string, turn: number): Promise<ForkedSession[]> {
  const lead = sessions.find((s) => s.role === 'commander') ?? (sessions.length === 1 ? sessions[0] : undefined);
  if (!lead) throw new RunRefused(`--turn: task "${task}" has no session to continue in the parent run (fork at the task without --turn)`, 'usage');
  const messages = await store.messages.list(lead.id);
  const reply = messages.find((m) => m.role === 'assistant' && m.turn >= turn);
  const turns = Math.max(0, ...messages.filter((m) => m.role === 'assistant').map((m) => m.turn));
  if (turn < 1 || !reply) throw new RunRefused(`--turn ${turn}: the ${lead.role === 'commander' ? 'commander' : lead.agent} of task "${task}" made ${turns} model request${turns === 1 ? '' : 's'} in the parent run (give 1–${turns})`, 'usage');
  const kept = messages.filter((m) => m.seq < reply.seq);
  const callIds = kept.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_use' ? [p.id] : [])));
  const out: ForkedSession[] = [{ from: lead.id, to: newId('ses'), cut: { beforeSeq: reply.seq, beforeTurn: reply.turn, callIds, before: reply.createdAt } }];
  for (const s of sessions) {
    if (s === lead || s.status !== 'completed' || s.finishedAt === undefined || s.finishedAt > reply.createdAt) continue;
    out.push({ from: s.id, to: newId('ses') });
  }
  return out;
}

function taskGraphOf(mission: Mission): RunOptions['taskGraph'] {
  return mission.tasks.map((t) => ({ name: t.name, dependsOn: [...t.dependsOn], routes: t.router.map((r) => r.target), sendTo: [...t.sendTo], ...(t.direct ? { direct: true as const } : {}) }));
}
