// `squadron diff`: two stored runs side by side, task by task — status, output, route, tools called,
// turns, tokens and cost — with whether each task's visible result differs.

import type { Store } from '../../store/index.js';
import { inspectRun, type TaskInspection } from './inspect.js';

export interface TaskSide {
  status: string;
  output?: unknown;
  summary?: string;
  route?: string;
  /** Tool refs called by the task's sessions, in first-call order. */
  tools: string[];
  turns: number;
  tokens: number;
  costUsd: number;
  /** Copied from the parent run by a fork (not run again). */
  copied: boolean;
}

export interface TaskDiff {
  task: string;
  a?: TaskSide;
  b?: TaskSide;
  /** Whether status, output, route or tools differ. */
  differs: boolean;
}

export interface RunDiff {
  a: { id: string; status: string; parentRunId?: string };
  b: { id: string; status: string; parentRunId?: string };
  tasks: TaskDiff[];
}

/** Undefined names the run that is missing. */
export async function diffRuns(store: Store, a: string, b: string): Promise<RunDiff | { missing: string }> {
  const left = await inspectRun(store, a, { transcript: true });
  if (!left) return { missing: a };
  const right = await inspectRun(store, b, { transcript: true });
  if (!right) return { missing: b };
  const names = [...new Set([...left.tasks.map((t) => t.name), ...right.tasks.map((t) => t.name)])];
  const sideOf = (tasks: TaskInspection[], copied: readonly string[], name: string): TaskSide | undefined => {
    const t = tasks.find((x) => x.name === name);
    return t === undefined || (t.status === 'pending' && t.startedAt === undefined && t.usage.turns === 0) ? undefined : side(t, copied.includes(name));
  };
  const head = (r: typeof left.run) => ({ id: r.id, status: r.status, ...(r.parentRunId ? { parentRunId: r.parentRunId } : {}) });
  return {
    a: head(left.run),
    b: head(right.run),
    tasks: names.map((task) => {
      const sa = sideOf(left.tasks, left.run.fork?.copied ?? [], task);
      const sb = sideOf(right.tasks, right.run.fork?.copied ?? [], task);
      return { task, ...(sa ? { a: sa } : {}), ...(sb ? { b: sb } : {}), differs: differs(sa, sb) };
    }),
  };
}

function side(t: TaskInspection, copied: boolean): TaskSide {
  const tools: string[] = [];
  for (const s of t.sessions ?? []) for (const c of s.toolCalls) if (!tools.includes(c.toolRef)) tools.push(c.toolRef);
  const u = t.usage;
  return {
    status: t.status,
    ...(t.output !== undefined ? { output: t.output } : {}),
    ...(t.summary !== undefined ? { summary: t.summary } : {}),
    ...(t.route !== undefined ? { route: t.route } : {}),
    tools,
    turns: u.turns,
    tokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens,
    costUsd: u.costUsd,
    copied,
  };
}

function differs(a: TaskSide | undefined, b: TaskSide | undefined): boolean {
  if (a === undefined || b === undefined) return a !== b;
  const key = (s: TaskSide) => JSON.stringify([s.status, s.output ?? null, s.summary ?? null, s.route ?? null, s.tools]);
  return key(a) !== key(b);
}
