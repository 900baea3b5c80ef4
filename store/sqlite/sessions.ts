// Sessions: one conversation per (run, task, agent), with its system prompt, tool and skill lists,
// the agent's final answer (and whether the commander has received it), and progressively loaded tools.

import { StoreError } from '../errors.js';
import { newId } from '../ids.js';
import { toSessionRow } from '../rowReaders.js';
import { parseRow, RawSession } from '../rowSchemas.js';
import type { SessionRole, SessionRow, SessionStatus } from '../rows.js';
import type { RepoContext } from './context.js';
import type { SessionsRepo } from '../repos/sessions.js';

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
    async open(s) {
      const id = newId('ses');
      const startedAt = now();
      const opened = insert.run(id, s.runId, s.task, s.agent, s.role, s.model, codec.text(s.systemPrompt), codec.json(s.tools), codec.json(s.skills), startedAt);
      // The row just written is what the caller gave (a fan-out opens a session per item: no read back
      // and validation of it); the one already there, when another writer came first, is read.
      if (opened.changes === 1) {
        return { id, runId: s.runId, task: s.task, agent: s.agent, role: s.role, model: s.model, status: 'running', systemPrompt: s.systemPrompt, tools: s.tools, skills: s.skills, answerDelivered: false, startedAt };
      }
      return read(byKey.get(s.runId, s.task, s.agent));
    },
    async get(runId, task, agent) {
      const row = byKey.get(runId, task, agent);
      return row === undefined ? undefined : read(row);
    },
    async byId(id) {
      const row = byId.get(id);
      return row === undefined ? undefined : read(row);
    },
    async listForRun(runId) {
      return byRun.all(runId).map(read);
    },
    async relabel(runId, task, label) {
      return relabel.run(label, runId, task).changes;
    },
    async setStatus(id, status) {
      mustChange(setStatus.run(status, status === 'running' ? 0 : 1, now(), id).changes, id);
    },
    async setAnswer(id, answer) {
      mustChange(setAnswer.run(codec.text(answer), id).changes, id);
    },
    async markAnswerDelivered(id) {
      mustChange(delivered.run(id).changes, id);
    },
    async addLoadedTool(id, ref) {
      addTool.run(id, ref, now());
    },
    async loadedTools(id) {
      return tools.all(id);
    },
  };
}

