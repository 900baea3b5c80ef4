// Runs: one row per execution of a mission, with its inputs (redacted), status and error.

import { StoreError } from '../errors.js';
import { newId } from '../ids.js';
import { toRunRow, toRunSummary } from '../rowReaders.js';
import { parseRow, RawRun, RawRunSummary } from '../rowSchemas.js';
import type { RunRow } from '../rows.js';
import type { RunsRepo } from '../repos/runs.js';
import { creationTiebreak, type DialectName } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

/**
 * Runs with their usage totals (their own: a fork's turns copied from its parent are not counted) and
 * task counts. The runs are chosen (and limited, `$1`) first, so only their own model turns are
 * summed — not every turn in the database.
 */
function runSummarySelect(d: DialectName, where: string): string {
  const tiebreak = creationTiebreak(d, 'id');
  return `
  WITH r AS (SELECT *, ${tiebreak} AS seq FROM runs ${where} ORDER BY started_at DESC, ${tiebreak} DESC LIMIT $1)
  SELECT r.*,
    COALESCE(t.input_tokens, 0) AS input_tokens, COALESCE(t.output_tokens, 0) AS output_tokens,
    COALESCE(t.cache_read_tokens, 0) AS cache_read_tokens, COALESCE(t.cache_write_tokens, 0) AS cache_write_tokens,
    COALESCE(t.cost_usd, 0) AS cost_usd, COALESCE(t.turns, 0) AS turns,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id) AS tasks_total,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id AND k.status = 'completed') AS tasks_completed,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id AND k.status = 'failed') AS tasks_failed
  FROM r
  LEFT JOIN (
    SELECT run_id, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
      SUM(cache_read_tokens) AS cache_read_tokens, SUM(cache_write_tokens) AS cache_write_tokens,
      SUM(cost_usd) AS cost_usd, COUNT(*) AS turns
    FROM model_turns WHERE run_id IN (SELECT id FROM r) AND NOT inherited GROUP BY run_id
  ) t ON t.run_id = r.id
  ORDER BY r.started_at DESC, r.seq DESC`;
}

const INSERT = sql<[id: string, mission: string, configPath: string, inputs: string, options: string, config: string | null, variables: string | null, at: string]>(
  `INSERT INTO runs (id, mission, config_path, status, inputs_json, options_json, config_json, variables_json, started_at)
   VALUES ($1, $2, $3, 'running', $4, $5, $6, $7, $8) RETURNING *`,
);
// Prepared when first run: a SQLite database of a schema before 0015 opened read-only has no such column.
const SET_WORKSPACE = sql<[workspace: string, id: string]>('UPDATE runs SET workspace_json = $1 WHERE id = $2');
// On PostgreSQL the row is locked until commit, so two resumes recording changes at once both keep theirs.
const UPDATE_CONFIG = sql<[config: string, variables: string, id: string]>('UPDATE runs SET config_json = $1, variables_json = $2 WHERE id = $3 RETURNING *');
const SET_CHANGES = sql<[changes: string, id: string]>('UPDATE runs SET config_changes_json = $1 WHERE id = $2');
const BY_ID = sql<[id: string]>('SELECT * FROM runs WHERE id = $1');
const LIST_ALL = sql<[limit: number | null]>((d) => runSummarySelect(d, ''));
const LIST_MISSION = sql<[limit: number | null, mission: string]>((d) => runSummarySelect(d, 'WHERE mission = $2'));
const LIST_RUNNING = sql<[limit: number], { id: string; mission: string }>((d) => `SELECT id, mission FROM runs WHERE status = 'running' ORDER BY started_at, ${creationTiebreak(d, 'id')} LIMIT $1`);
const SET_STATUS = sql<[status: string, error: string | null, finishedAt: string | null, id: string]>('UPDATE runs SET status = $1, error = $2, finished_at = $3 WHERE id = $4');
const REMOVE = sql<[id: string]>('DELETE FROM runs WHERE id = $1');
const SET_BUDGET = sql<[budget: string, id: string]>('UPDATE runs SET budget_json = $1 WHERE id = $2');
const LATEST = sql<[mission: string, configPath: string]>(
  (d) => `SELECT * FROM runs WHERE mission = $1 AND config_path = $2 ORDER BY started_at DESC, ${creationTiebreak(d, 'id')} DESC LIMIT 1`,
);
// One statement: the row as it is after the claim, whoever won it.
const CLAIM_TRACE = sql<[candidate: string, id: string], { trace_context: unknown }>(
  'UPDATE runs SET trace_context = COALESCE(trace_context, $1) WHERE id = $2 RETURNING trace_context',
);

export function createRunsRepo({ db, codec, now, stamp }: QueryContext): RunsRepo {
  db.prepare(INSERT, UPDATE_CONFIG, SET_CHANGES, BY_ID, LIST_ALL, LIST_MISSION, LIST_RUNNING, SET_STATUS, REMOVE, SET_BUDGET, LATEST, CLAIM_TRACE);
  const read = (row: unknown): RunRow => toRunRow(codec, parseRow(RawRun, 'runs', row));
  const notFound = (id: string): StoreError => new StoreError('NOT_FOUND', `no run ${id}`);

  return {
    async create({ id, mission, configPath, inputs, options, config, variables }) {
      const row = await db.get(INSERT, [id ?? newId('run'), mission, configPath, codec.json(inputs), codec.json(options ?? {}), codec.jsonOrNull(config), codec.jsonOrNull(variables), stamp()]);
      return read(row);
    },
    async setWorkspace(id, workspace) {
      if ((await db.run(SET_WORKSPACE, [codec.json(workspace), id])) === 0) throw notFound(id);
    },
    async updateConfig(id, { config, variables, changes }) {
      await db.atomic(async (tx) => {
        const row = await tx.get(UPDATE_CONFIG, [codec.json(config), codec.json(variables), id]);
        if (row === undefined) throw notFound(id);
        if (changes === undefined) return;
        const recorded = read(row).configChanges;
        await tx.run(SET_CHANGES, [codec.json([...recorded, { at: now(), changes }]), id]);
      });
    },
    async get(id) {
      const row = await db.get(BY_ID, [id]);
      return row === undefined ? undefined : read(row);
    },
    async list(opts = {}) {
      const limit = opts.limit ?? db.dialect.noLimit;
      const rows = opts.mission === undefined ? await db.all(LIST_ALL, [limit]) : await db.all(LIST_MISSION, [limit, opts.mission]);
      return rows.map((row) => toRunSummary(codec, parseRow(RawRunSummary, 'runs', row)));
    },
    async listRunning(limit) {
      return (await db.all(LIST_RUNNING, [limit])).map((r) => ({ id: String(r.id), mission: String(r.mission) }));
    },
    async setStatus(id, status, error) {
      const terminal = status !== 'running';
      if ((await db.run(SET_STATUS, [status, codec.textOrNull(error), terminal ? now() : null, id])) === 0) throw notFound(id);
    },
    async remove(id) {
      return (await db.run(REMOVE, [id])) > 0;
    },
    async setBudget(id, budget) {
      if ((await db.run(SET_BUDGET, [codec.json(budget), id])) === 0) throw notFound(id);
    },
    async latestForMission(mission, configPath) {
      const row = await db.get(LATEST, [mission, configPath]);
      return row === undefined ? undefined : read(row);
    },
    async claimTraceContext(id, candidate) {
      const stored = (await db.get(CLAIM_TRACE, [candidate, id]))?.trace_context;
      if (typeof stored !== 'string') throw notFound(id);
      return stored;
    },
  };
}
