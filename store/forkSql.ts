// The statements that copy a parent run's rows into a forked child, written once for both backends
// with `?` placeholders (PostgreSQL numbers them: numbered()); booleans are written as comparisons,
// which each backend stores as its own true. Copied model turns are marked inherited: the child's
// budgets count only what it spends itself.

import type { z } from 'zod';
import { newId } from './ids.js';
import { RawItem, RawLedger, RawTask, RawTurn, type LazySchema } from './rowSchemas.js';
import type { ForkCopy } from './repos/forks.js';

export interface ForkStatement {
  sql: string;
  values: unknown[];
}

/** The columns of a table's row schema but `skip`: a column added to the schema is copied with no edit here. */
const columnsOf = (schema: LazySchema<z.ZodObject>, ...skip: string[]): string => Object.keys(schema().shape).filter((c) => !skip.includes(c)).join(', ');
const SESSION_COLS = 'task_name, agent, role, model, status, system_prompt, tools_json, skills_json, answer, answer_delivered, started_at, finished_at';
const MESSAGE_COLS = 'seq, role, parts_json, turn, kind, call_id, created_at, checksum, parts_bytes';
const VIEW_COLS = 'seq, kind, after_seq, keep_from, head_json, input_tokens, dropped, created_at';
const REQUEST_COLS = 'task, item, agent, call_id, seq, kind, tool_ref, payload_json, status, answer_json, reason, decided_by, decided_at, created_at';

/** Every statement of the copy, in an order that satisfies the foreign keys. */
export function forkStatements(plan: ForkCopy, forkJson: string): ForkStatement[] {
  const TASK_COLS = columnsOf(RawTask, 'id', 'run_id');
  const ITEM_COLS = columnsOf(RawItem, 'run_id');
  const CALL_COLS = columnsOf(RawLedger, 'id', 'session_id');
  const TURN_COLS = columnsOf(RawTurn, 'id', 'run_id', 'session_id', 'inherited');
  const { parentId: p, childId: c } = plan;
  const out: ForkStatement[] = [{ sql: 'UPDATE runs SET parent_run_id = ?, fork_json = ? WHERE id = ?', values: [p, forkJson, c] }];
  for (const task of plan.tasks) {
    out.push({ sql: `INSERT INTO tasks (id, run_id, ${TASK_COLS}) SELECT ?, ?, ${TASK_COLS} FROM tasks WHERE run_id = ? AND name = ?`, values: [newId('tsk'), c, p, task] });
    out.push({ sql: `INSERT INTO task_items (run_id, ${ITEM_COLS}) SELECT ?, ${ITEM_COLS} FROM task_items WHERE run_id = ? AND task = ?`, values: [c, p, task] });
    out.push({ sql: `INSERT INTO route_decisions (run_id, from_task, to_task, kind, created_at) SELECT ?, from_task, to_task, kind, created_at FROM route_decisions WHERE run_id = ? AND from_task = ?`, values: [c, p, task] });
  }
  if (plan.runningTask !== undefined) {
    out.push({
      sql: `INSERT INTO tasks (id, run_id, name, status, started_at, attempt) SELECT ?, ?, name, 'running', started_at, attempt FROM tasks WHERE run_id = ? AND name = ?`,
      values: [newId('tsk'), c, p, plan.runningTask],
    });
  }
  for (const s of plan.sessions) {
    const cut = s.cut;
    // A cut session is running again: no answer yet (`x <> x` is false as SQLite's 0 and PostgreSQL's boolean alike).
    const status = cut ? `'running'` : 'status';
    // A cut session's prompt is left empty: the runtime renders it from the fork's config (the change applies).
    const cols = SESSION_COLS.replace('status, ', `${status}, `).replace('system_prompt', cut ? `''` : 'system_prompt').replace('answer, answer_delivered', cut ? 'NULL, answer_delivered <> answer_delivered' : 'answer, answer_delivered').replace(', finished_at', cut ? ', NULL' : ', finished_at');
    out.push({ sql: `INSERT INTO sessions (id, run_id, ${SESSION_COLS}) SELECT ?, ?, ${cols} FROM sessions WHERE id = ?`, values: [s.to, c, s.from] });
    out.push({
      sql: `INSERT INTO messages (session_id, ${MESSAGE_COLS}) SELECT ?, ${MESSAGE_COLS} FROM messages WHERE session_id = ?${cut ? ' AND seq < ?' : ''} ORDER BY seq`,
      values: cut ? [s.to, s.from, cut.beforeSeq] : [s.to, s.from],
    });
    out.push({
      sql: `INSERT INTO model_turns (run_id, session_id, inherited, ${TURN_COLS}) SELECT ?, ?, 1 = 1, ${TURN_COLS} FROM model_turns WHERE session_id = ?${cut ? ' AND turn < ?' : ''} ORDER BY id`,
      values: cut ? [c, s.to, s.from, cut.beforeTurn] : [c, s.to, s.from],
    });
    out.push({
      sql: `INSERT INTO context_views (session_id, ${VIEW_COLS}) SELECT ?, ${VIEW_COLS} FROM context_views WHERE session_id = ?${cut ? ' AND after_seq < ?' : ''}`,
      values: cut ? [s.to, s.from, cut.beforeSeq] : [s.to, s.from],
    });
    out.push({
      sql: `INSERT INTO loaded_tools (session_id, ref, loaded_at) SELECT ?, ref, loaded_at FROM loaded_tools WHERE session_id = ?${cut ? ' AND loaded_at < ?' : ''}`,
      values: cut ? [s.to, s.from, cut.before] : [s.to, s.from],
    });
    out.push({
      sql: `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, created_at) SELECT ?, handle, ?, bytes, payload, created_at FROM stored_results WHERE session_id = ?`,
      values: [s.to, c, s.from],
    });
    const calls = cut ? cut.callIds.map((id) => [' AND call_id = ?', id] as const) : [['', undefined] as const];
    for (const [where, id] of calls) {
      const extra = id === undefined ? [] : [id];
      out.push({ sql: `INSERT INTO tool_calls (session_id, ${CALL_COLS}) SELECT ?, ${CALL_COLS} FROM tool_calls WHERE session_id = ?${where} ORDER BY id`, values: [s.to, s.from, ...extra] });
      out.push({
        sql: `INSERT INTO operator_requests (id, run_id, session_id, ${REQUEST_COLS}) SELECT ${idFromParent('id')}, ?, ?, ${REQUEST_COLS} FROM operator_requests WHERE session_id = ?${where} AND status <> 'pending'`,
        values: [s.to, c, s.to, s.from, ...extra],
      });
    }
  }
  return out;
}

/** A copied approval's id: the parent's joined with the child session's, unique across forks of forks. */
function idFromParent(column: string): string {
  return `${column} || '~' || ?`;
}

/** `?` placeholders as PostgreSQL's `$1, $2, …`. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
