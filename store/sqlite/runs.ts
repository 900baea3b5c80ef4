// Runs: one row per execution of a mission, with its inputs (redacted), status and error.

import { StoreError } from '../errors.js';
import { newId } from '../ids.js';
import { toRunRow, toRunSummary } from '../rowReaders.js';
import { parseRow, RawRun, RawRunSummary } from '../rowSchemas.js';
import type { RunConfig, RunRow, RunStatus, RunSummary, RunVariables } from '../rows.js';
import { runSummarySelect } from '../sharedSql.js';
import type { RepoContext } from './context.js';
import type { RunsRepo } from '../repos/runs.js';

export function createRunsRepo({ db, codec, now }: RepoContext): RunsRepo {
  const insert = db.prepare(
    `INSERT INTO runs (id, mission, config_path, status, inputs_json, options_json, config_json, variables_json, started_at)
     VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?) RETURNING *`,
  );
  const updateConfig = db.prepare('UPDATE runs SET config_json = ?, variables_json = ? WHERE id = ?');
  const setChanges = db.prepare('UPDATE runs SET config_changes_json = ? WHERE id = ?');
  const byId = db.prepare('SELECT * FROM runs WHERE id = ?');
  const setBudget = db.prepare('UPDATE runs SET budget_json = ? WHERE id = ?');
  // Prepared when first run: a database of a schema before 0015 opened read-only has no such column.
  let setWorkspace: ReturnType<typeof db.prepare<[string, string]>> | undefined;
  const remove = db.prepare('DELETE FROM runs WHERE id = ?');
  const listAll = db.prepare(runSummarySelect('', '@limit', 'rowid'));
  const listMission = db.prepare(runSummarySelect('WHERE mission = @mission', '@limit', 'rowid'));
  const setStatus = db.prepare(
    `UPDATE runs SET status = ?, error = ?, finished_at = CASE WHEN ? THEN ? ELSE NULL END WHERE id = ?`,
  );
  const claimTrace = db.prepare('UPDATE runs SET trace_context = ? WHERE id = ? AND trace_context IS NULL');
  const traceOf = db.prepare('SELECT trace_context FROM runs WHERE id = ?');
  const latest = db.prepare(
    `SELECT * FROM runs WHERE mission = ? AND config_path = ? ORDER BY started_at DESC, rowid DESC LIMIT 1`,
  );

  const read = (row: unknown): RunRow => toRunRow(codec, parseRow(RawRun, 'runs', row));

  return {
    async create({ id, mission, configPath, inputs, options, config, variables }) {
      const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : codec.json(value));
      return read(insert.get(id ?? newId('run'), mission, configPath, codec.json(inputs), codec.json(options ?? {}), jsonOrNull(config), jsonOrNull(variables), now()));
    },
    async setWorkspace(id, workspace) {
      setWorkspace ??= db.prepare<[string, string]>('UPDATE runs SET workspace_json = ? WHERE id = ?');
      if (setWorkspace.run(codec.json(workspace), id).changes === 0) throw new StoreError('NOT_FOUND', `no run ${id}`);
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
    async remove(id) {
      return remove.run(id).changes > 0;
    },
    async setBudget(id, budget) {
      if (setBudget.run(codec.json(budget), id).changes === 0) throw new StoreError('NOT_FOUND', `no run ${id}`);
    },
    async latestForMission(mission, configPath) {
      const row = latest.get(mission, configPath);
      return row === undefined ? undefined : read(row);
    },
    async claimTraceContext(id, candidate) {
      claimTrace.run(candidate, id);
      const row = traceOf.get(id) as { trace_context: string | null } | undefined;
      if (row?.trace_context == null) throw new StoreError('NOT_FOUND', `no run ${id}`);
      return row.trace_context;
    },
  };
}


