// Sessions: one conversation per (run, task, agent), with its system prompt, tool and skill lists,
// the agent's final answer (and whether the commander has received it), and progressively loaded
// tools. Creation and load order: SQLite's rowid; on PostgreSQL microsecond-ordered timestamps
// (QueryContext's stamp), it having no rowid.

import { StoreError } from '../errors.js';
import { newId } from '../ids.js';
import { toSessionRow } from '../rowReaders.js';
import { parseRow, RawSession } from '../rowSchemas.js';
import type { SessionRow } from '../rows.js';
import type { SessionsRepo } from '../repos/sessions.js';
import { flags, insertionOrder } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

type Key = [runId: string, task: string, agent: string];

const INSERT = sql<
  [id: string, runId: string, task: string, agent: string, role: string, model: string, prompt: string, tools: string, skills: string, at: string],
  { started_at: string }
>(
  `INSERT INTO sessions (id, run_id, task_name, agent, role, model, status, system_prompt, tools_json, skills_json, started_at)
   VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $9, $10) ON CONFLICT (run_id, task_name, agent) DO NOTHING RETURNING started_at`,
);
const BY_KEY = sql<Key>('SELECT * FROM sessions WHERE run_id = $1 AND task_name = $2 AND agent = $3');
const BY_ID = sql<[id: string]>('SELECT * FROM sessions WHERE id = $1');
const BY_RUN = sql<[runId: string]>((d) => `SELECT * FROM sessions WHERE run_id = $1 ORDER BY ${insertionOrder(d, 'started_at, id')}`);
const RELABEL = sql<[label: string, runId: string, task: string]>('UPDATE sessions SET task_name = $1 WHERE run_id = $2 AND task_name = $3');
const SET_STATUS = sql<[status: string, finishedAt: string | null, id: string]>('UPDATE sessions SET status = $1, finished_at = $2 WHERE id = $3');
const SET_ANSWER = sql<[answer: string, id: string]>('UPDATE sessions SET answer = $1, answer_delivered = false WHERE id = $2');
const DELIVERED = sql<[id: string]>('UPDATE sessions SET answer_delivered = true WHERE id = $1');
const ADD_TOOL = sql<[id: string, ref: string, at: string]>('INSERT INTO loaded_tools (session_id, ref, loaded_at) VALUES ($1, $2, $3) ON CONFLICT (session_id, ref) DO NOTHING');
const TOOLS = sql<[id: string], { ref: string }>((d) => `SELECT ref FROM loaded_tools WHERE session_id = $1 ORDER BY ${insertionOrder(d, 'loaded_at, ref')}`);

export function createSessionsRepo({ db, codec, now, stamp }: QueryContext): SessionsRepo {
  db.prepare(INSERT, BY_KEY, BY_ID, BY_RUN, RELABEL, SET_STATUS, SET_ANSWER, DELIVERED, ADD_TOOL, TOOLS);
  const read = (row: Record<string, unknown>): SessionRow => toSessionRow(codec, parseRow(RawSession, 'sessions', flags(row, 'answer_delivered')));
  const mustChange = (changed: number, id: string): void => {
    if (changed === 0) throw new StoreError('NOT_FOUND', `no session ${id}`);
  };
  const byKey = async (runId: string, task: string, agent: string): Promise<SessionRow | undefined> => {
    const row = await db.get(BY_KEY, [runId, task, agent]);
    return row === undefined ? undefined : read(row);
  };

  return {
    async open(s) {
      const id = newId('ses');
      const opened = await db.get(INSERT, [id, s.runId, s.task, s.agent, s.role, s.model, codec.text(s.systemPrompt), codec.json(s.tools), codec.json(s.skills), stamp()]);
      // The row just written is what the caller gave (a fan-out opens a session per item: no read back
      // and validation of it); the one already there, when another writer came first, is read.
      if (opened !== undefined) {
        return { id, runId: s.runId, task: s.task, agent: s.agent, role: s.role, model: s.model, status: 'running', systemPrompt: s.systemPrompt, tools: s.tools, skills: s.skills, answerDelivered: false, startedAt: opened.started_at };
      }
      const existing = await byKey(s.runId, s.task, s.agent);
      if (existing === undefined) throw new StoreError('NOT_FOUND', `no session for ${s.agent} in task ${s.task} of run ${s.runId}`);
      return existing;
    },
    get: byKey,
    async byId(id) {
      const row = await db.get(BY_ID, [id]);
      return row === undefined ? undefined : read(row);
    },
    async listForRun(runId) {
      return (await db.all(BY_RUN, [runId])).map(read);
    },
    async relabel(runId, task, label) {
      return db.run(RELABEL, [label, runId, task]);
    },
    async setStatus(id, status) {
      mustChange(await db.run(SET_STATUS, [status, status === 'running' ? null : now(), id]), id);
    },
    async setAnswer(id, answer) {
      mustChange(await db.run(SET_ANSWER, [codec.text(answer), id]), id);
    },
    async markAnswerDelivered(id) {
      mustChange(await db.run(DELIVERED, [id]), id);
    },
    async addLoadedTool(id, ref) {
      await db.run(ADD_TOOL, [id, ref, stamp()]);
    },
    async loadedTools(id) {
      return (await db.all(TOOLS, [id])).map((row) => String(row.ref));
    },
  };
}
