// Sessions: one conversation per (run, task, agent), with its system prompt, tool and skill lists,
// the agent's final answer (and whether the commander has received it), and progressively loaded tools.

import type { SessionRole, SessionRow, SessionStatus } from '../rows.js';

export interface OpenSession {
  runId: string;
  task: string;
  agent: string;
  role: SessionRole;
  model: string;
  systemPrompt: string;
  tools: unknown;
  skills: unknown;
}

export interface SessionsRepo {
  /** Returns the existing row unchanged if (run, task, agent) already has a session (resume). */
  open(s: OpenSession): Promise<SessionRow>;
  get(runId: string, task: string, agent: string): Promise<SessionRow | undefined>;
  byId(id: string): Promise<SessionRow | undefined>;
  /** In creation order. */
  listForRun(runId: string): Promise<SessionRow[]>;
  /**
   * Moves every session of (run, task) to the task label `label`, so the task's next attempt opens
   * fresh sessions while the old ones stay readable. Returns how many were moved.
   */
  relabel(runId: string, task: string, label: string): Promise<number>;
  /** 'completed' and 'failed' set finished_at; 'running' clears it. */
  setStatus(id: string, status: SessionStatus): Promise<void>;
  /** Stores the agent's final answer with answer_delivered = 0. */
  setAnswer(id: string, answer: string): Promise<void>;
  markAnswerDelivered(id: string): Promise<void>;
  /** Idempotent: loading a tool twice keeps its first position. */
  addLoadedTool(id: string, ref: string): Promise<void>;
  /** In load order. */
  loadedTools(id: string): Promise<string[]>;
}
