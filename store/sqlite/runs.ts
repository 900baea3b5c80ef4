// Runs: one row per execution of a mission, with its inputs (redacted), status and error.

import { StoreError } from '../errors.js';
import { newId } from '../ids.js';
import { toRunRow, toRunSummary } from '../rowReaders.js';
import { parseRow, RawRun, RawRunSummary } from '../rowSchemas.js';
import type { RunConfig, RunRow, RunStatus, RunSummary, RunVariables } from '../rows.js';
import type { RepoContext } from './context.js';
import type { RunsRepo } from '../repos/runs.js';

/**
 * Runs with their usage totals and task counts. The runs are chosen (and limited) first, so only their
 * own model turns are summed — not every turn in the database.
 */
function summarySelect(where: string): string {
  return `
  WITH r AS (SELECT *, rowid AS seq FROM runs ${where} ORDER BY started_at DESC, rowid DESC LIMIT @limit)
  SELECT r.*,
    COALESCE(t.input_tokens, 0) AS input_tokens, COALESCE(t.output_tokens, 0) AS output_tokens,
    COALESCE(t.cache_read_tokens, 0) AS cache_read_tokens, COALESCE(t.cache_write_tokens, 0) AS cache_write_tokens,
    COALESCE(t.cost_usd, 0.0) AS cost_usd, COALESCE(t.turns, 0) AS turns,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id) AS tasks_total,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id AND k.status = 'completed') AS tasks_completed,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id AND k.status = 'failed') AS tasks_failed
  FROM r
  LEFT JOIN (
    SELECT run_id, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
      SUM(cache_read_tokens) AS cache_read_tokens, SUM(cache_write_tokens) AS cache_write_tokens,
      SUM(cost_usd) AS cost_usd, COUNT(*) AS turns
    FROM model_turns WHERE run_id IN (SELECT id FROM r) GROUP BY run_id
  ) t ON t.run_id = r.id
  ORDER BY r.started_at DESC, r.seq DESC`;
}

export function createRunsRepo({ db, codec, now }: RepoContext): RunsRepo {
  const insert = db.prepare(
    `INSERT INTO runs (id, mission, config_path, status, inputs_json, options_json, config_json, variables_json, started_at)
     VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?) RETURNING *`,
  );
  const updateConfig = db.prepare('UPDATE runs SET config_json = ?, variables_json = ? WHERE id = ?');
  const setChanges = db.prepare('UPDATE runs SET config_changes_json = ? WHERE id = ?');
  const byId = db.prepare('SELECT * FROM runs WHERE id = ?');
  const listAll = db.prepare(summarySelect(''));
  const listMission = db.prepare(summarySelect('WHERE mission = @mission'));
  const setStatus = db.prepare(
    `UPDATE runs SET status = ?, error = ?, finished_at = CASE WHEN ? THEN ? ELSE NULL END WHERE id = ?`,
  );
  const latest = db.prepare(
    `SELECT * FROM runs WHERE mission = ? AND config_path = ? ORDER BY started_at DESC, rowid DESC LIMIT 1`,
  );

  const read = (row: unknown): RunRow => toRunRow(codec, parseRow(RawRun, 'runs', row));

  return {
    async create({ id, mission, configPath, inputs, options, config, variables }) {
      const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : codec.json(value));
      return read(insert.get(id ?? newId('run'), mission, configPath, codec.json(inputs), codec.json(options ?? {}), jsonOrNull(config), jsonOrNull(variables), now()));
    },
    async updateConfig(id, { config, variables, changes }) {
      db.transaction(() => {
        if (updateConfig.run(codec.json(config), codec.json(variables), id).changes === 0) throw new StoreError('NOT_FOUND', `no run ${id}`);
        if (changes === undefined) return;
        const recorded = read(byId.get(id)).configChanges;
        setChanges.run(codec.json([...recorded, { at: now(), changes }]), id);
      })();
    },
    async get(id) {
      const row = byId.get(id);
      return row === undefined ? undefined : read(row);
    },
    async list(opts = {}) {
      const limit = opts.limit ?? -1;
      const rows = opts.mission === undefined ? listAll.all({ limit }) : listMission.all({ mission: opts.mission, limit });
      return rows.map((row) => toRunSummary(codec, parseRow(RawRunSummary, 'runs', row)));
    },
    async setStatus(id, status, error) {
      const terminal = status !== 'running';
      const changed = setStatus.run(status, codec.textOrNull(error), terminal ? 1 : 0, now(), id).changes;
      if (changed === 0) throw new StoreError('NOT_FOUND', `no run ${id}`);
    },
    async latestForMission(mission, configPath) {
      const row = latest.get(mission, configPath);
      return row === undefined ? undefined : read(row);
    },
  };
}

