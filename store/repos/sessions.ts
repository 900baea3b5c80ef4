// Sessions: one conversation per (run, task, agent), with its system prompt, tool and skill lists,
// the agent's final answer (and whether the commander has received it), and progressively loaded tools.

import { StoreError } from '../errors.js';
import { newId } from '../ids.js';
import { toSessionRow } from '../rowReaders.js';
import { parseRow, RawSession } from '../rowSchemas.js';
import type { SessionRole, SessionRow, SessionStatus } from '../rows.js';
import type { RepoContext } from './context.js';

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
  open(s: OpenSession): SessionRow;
  get(runId: string, task: string, agent: string): SessionRow | undefined;
  byId(id: string): SessionRow | undefined;
  /** In creation order. */
  listForRun(runId: string): SessionRow[];
  /**
   * Moves every session of (run, task) to the task label `label`, so the task's next attempt opens
   * fresh sessions while the old ones stay readable. Returns how many were moved.
   */
  relabel(runId: string, task: string, label: string): number;
  /** 'completed' and 'failed' set finished_at; 'running' clears it. */
  setStatus(id: string, status: SessionStatus): void;
  /** Stores the agent's final answer with answer_delivered = 0. */
  setAnswer(id: string, answer: string): void;
  markAnswerDelivered(id: string): void;
  /** Idempotent: loading a tool twice keeps its first position. */
  addLoadedTool(id: string, ref: string): void;
  /** In load order. */
  loadedTools(id: string): string[];
}

export function createSessionsRepo({ db, codec, now }: RepoContext): SessionsRepo {
  const insert = db.prepare(
    `INSERT INTO sessions (id, run_id, task_name, agent, role, model, status, system_prompt, tools_json, skills_json, started_at)
     VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?) ON CONFLICT (run_id, task_name, agent) DO NOTHING`,
  );
  const byKey = db.prepare('SELECT * FROM sessions WHERE run_id = ? AND task_name = ? AND agent = ?');
  const byId = db.prepare('SELECT * FROM sessions WHERE id = ?');
  const byRun = db.prepare('SELECT * FROM sessions WHERE run_id = ? ORDER BY rowid');
  const relabel = db.prepare('UPDATE sessions SET task_name = ? WHERE run_id = ? AND task_name = ?');
  const setStatus = db.prepare(
    `UPDATE sessions SET status = ?, finished_at = CASE WHEN ? THEN ? ELSE NULL END WHERE id = ?`,
  );
  const setAnswer = db.prepare('UPDATE sessions SET answer = ?, answer_delivered = 0 WHERE id = ?');
  const delivered = db.prepare('UPDATE sessions SET answer_delivered = 1 WHERE id = ?');
  const addTool = db.prepare(
    'INSERT INTO loaded_tools (session_id, ref, loaded_at) VALUES (?, ?, ?) ON CONFLICT (session_id, ref) DO NOTHING',
  );
  const tools = db.prepare<[string], string>('SELECT ref FROM loaded_tools WHERE session_id = ? ORDER BY rowid').pluck();

  const read = (row: unknown): SessionRow => toSessionRow(codec, parseRow(RawSession, 'sessions', row));
  const mustChange = (changes: number, id: string): void => {
    if (changes === 0) throw new StoreError('NOT_FOUND', `no session ${id}`);
  };

  return {
    open(s) {
      insert.run(
        newId('ses'),
        s.runId,
        s.task,
        s.agent,
        s.role,
        s.model,
        codec.text(s.systemPrompt),
        codec.json(s.tools),
        codec.json(s.skills),
        now(),
      );
      return read(byKey.get(s.runId, s.task, s.agent));
    },
    get(runId, task, agent) {
      const row = byKey.get(runId, task, agent);
      return row === undefined ? undefined : read(row);
    },
    byId(id) {
      const row = byId.get(id);
      return row === undefined ? undefined : read(row);
    },
    listForRun(runId) {
      return byRun.all(runId).map(read);
    },
    relabel(runId, task, label) {
      return relabel.run(label, runId, task).changes;
    },
    setStatus(id, status) {
      mustChange(setStatus.run(status, status === 'running' ? 0 : 1, now(), id).changes, id);
    },
    setAnswer(id, answer) {
      mustChange(setAnswer.run(codec.text(answer), id).changes, id);
    },
    markAnswerDelivered(id) {
      mustChange(delivered.run(id).changes, id);
    },
    addLoadedTool(id, ref) {
      addTool.run(id, ref, now());
    },
    loadedTools(id) {
      return tools.all(id);
    },
  };
}
