// Sessions on PostgreSQL: one conversation per (run, task, agent), with its system prompt, tool and
// skill lists, the agent's final answer, and progressively loaded tools. Creation and load order
// come from microsecond-ordered timestamps (context.ts's stamp), PostgreSQL having no rowid.

import { StoreError } from '../../errors.js';
import { newId } from '../../ids.js';
import { toSessionRow } from '../../rowReaders.js';
import { parseRow, RawSession } from '../../rowSchemas.js';
import type { SessionRow } from '../../rows.js';
import type { SessionsRepo } from '../../repos/sessions.js';
import { flags, type PgRepoContext } from '../context.js';

export function createSessionsRepo({ sql, codec, now, stamp }: PgRepoContext): SessionsRepo {
  const read = (row: Record<string, unknown>): SessionRow => toSessionRow(codec, parseRow(RawSession, 'sessions', flags(row, 'answer_delivered')));
  const mustChange = (rowCount: number, id: string): void => {
    if (rowCount === 0) throw new StoreError('NOT_FOUND', `no session ${id}`);
  };
  const byKey = async (runId: string, task: string, agent: string): Promise<SessionRow | undefined> => {
    const { rows } = await sql.query('SELECT * FROM sessions WHERE run_id = $1 AND task_name = $2 AND agent = $3', [runId, task, agent]);
    return rows[0] === undefined ? undefined : read(rows[0]);
  };

  return {
    async open(s) {
      const { rows } = await sql.query(
        `INSERT INTO sessions (id, run_id, task_name, agent, role, model, status, system_prompt, tools_json, skills_json, started_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $9, $10) ON CONFLICT (run_id, task_name, agent) DO NOTHING RETURNING *`,
        [newId('ses'), s.runId, s.task, s.agent, s.role, s.model, codec.text(s.systemPrompt), codec.json(s.tools), codec.json(s.skills), stamp()],
      );
      if (rows[0] !== undefined) return read(rows[0]);
      const existing = await byKey(s.runId, s.task, s.agent);
      if (existing === undefined) throw new StoreError('NOT_FOUND', `no session for ${s.agent} in task ${s.task} of run ${s.runId}`);
      return existing;
    },
    get: byKey,
    async byId(id) {
      const { rows } = await sql.query('SELECT * FROM sessions WHERE id = $1', [id]);
      return rows[0] === undefined ? undefined : read(rows[0]);
    },
    async listForRun(runId) {
      const { rows } = await sql.query('SELECT * FROM sessions WHERE run_id = $1 ORDER BY started_at, id', [runId]);
      return rows.map(read);
    },
    async relabel(runId, task, label) {
      const { rowCount } = await sql.query('UPDATE sessions SET task_name = $1 WHERE run_id = $2 AND task_name = $3', [label, runId, task]);
      return rowCount;
    },
    async setStatus(id, status) {
      const { rowCount } = await sql.query('UPDATE sessions SET status = $1, finished_at = $2 WHERE id = $3', [
        status,
        status === 'running' ? null : now(),
        id,
      ]);
      mustChange(rowCount, id);
    },
    async setAnswer(id, answer) {
      const { rowCount } = await sql.query('UPDATE sessions SET answer = $1, answer_delivered = false WHERE id = $2', [codec.text(answer), id]);
      mustChange(rowCount, id);
    },
    async markAnswerDelivered(id) {
      const { rowCount } = await sql.query('UPDATE sessions SET answer_delivered = true WHERE id = $1', [id]);
      mustChange(rowCount, id);
    },
    async addLoadedTool(id, ref) {
      await sql.query('INSERT INTO loaded_tools (session_id, ref, loaded_at) VALUES ($1, $2, $3) ON CONFLICT (session_id, ref) DO NOTHING', [
        id,
        ref,
        stamp(),
      ]);
    },
    async loadedTools(id) {
      const { rows } = await sql.query('SELECT ref FROM loaded_tools WHERE session_id = $1 ORDER BY loaded_at, ref', [id]);
      return rows.map((row) => String(row['ref']));
    },
  };
}
