// Runs on PostgreSQL: one row per execution of a mission, with its inputs (redacted), status and error.

import { StoreError } from '../../errors.js';
import { newId } from '../../ids.js';
import { toRunRow, toRunSummary } from '../../rowReaders.js';
import { parseRow, RawRun, RawRunSummary } from '../../rowSchemas.js';
import type { RunRow } from '../../rows.js';
import type { RunsRepo } from '../../repos/runs.js';
import { runSummarySelect } from '../../sharedSql.js';
import type { PgRepoContext } from '../context.js';

/** `$1` is the limit (NULL: all). */
const LIST_ALL = runSummarySelect('', '$1', 'id');
const LIST_MISSION = runSummarySelect('WHERE mission = $2', '$1', 'id');

export function createRunsRepo({ sql, atomic, codec, now, stamp }: PgRepoContext): RunsRepo {
  const read = (row: unknown): RunRow => toRunRow(codec, parseRow(RawRun, 'runs', row));
  const notFound = (id: string): StoreError => new StoreError('NOT_FOUND', `no run ${id}`);

  return {
    async create({ id, mission, configPath, inputs, options, config, variables }) {
      const { rows } = await sql.query(
        `INSERT INTO runs (id, mission, config_path, status, inputs_json, options_json, config_json, variables_json, started_at)
         VALUES ($1, $2, $3, 'running', $4, $5, $6, $7, $8) RETURNING *`,
        [id ?? newId('run'), mission, configPath, codec.json(inputs), codec.json(options ?? {}), codec.jsonOrNull(config), codec.jsonOrNull(variables), stamp()],
      );
      return read(rows[0]);
    },
    async setWorkspace(id, workspace) {
      const { rowCount } = await sql.query('UPDATE runs SET workspace_json = $1 WHERE id = $2', [codec.json(workspace), id]);
      if (rowCount === 0) throw new StoreError('NOT_FOUND', `no run ${id}`);
    },
    async updateConfig(id, { config, variables, changes }) {
      await atomic(async (tx) => {
        // Locked until commit, so two resumes recording changes at once both keep theirs.
        const { rows } = await tx.query('UPDATE runs SET config_json = $1, variables_json = $2 WHERE id = $3 RETURNING *', [
          codec.json(config),
          codec.json(variables),
          id,
        ]);
        if (rows[0] === undefined) throw notFound(id);
        if (changes === undefined) return;
        const recorded = read(rows[0]).configChanges;
        await tx.query('UPDATE runs SET config_changes_json = $1 WHERE id = $2', [codec.json([...recorded, { at: now(), changes }]), id]);
      });
    },
    async get(id) {
      const { rows } = await sql.query('SELECT * FROM runs WHERE id = $1', [id]);
      return rows[0] === undefined ? undefined : read(rows[0]);
    },
    async list(opts = {}) {
      const limit = opts.limit ?? null;
      const { rows } = opts.mission === undefined ? await sql.query(LIST_ALL, [limit]) : await sql.query(LIST_MISSION, [limit, opts.mission]);
      return rows.map((row) => toRunSummary(codec, parseRow(RawRunSummary, 'runs', row)));
    },
    async setStatus(id, status, error) {
      const terminal = status !== 'running';
      const { rowCount } = await sql.query('UPDATE runs SET status = $1, error = $2, finished_at = $3 WHERE id = $4', [
        status,
        codec.textOrNull(error),
        terminal ? now() : null,
        id,
      ]);
      if (rowCount === 0) throw notFound(id);
    },
    async remove(id) {
      const { rowCount } = await sql.query('DELETE FROM runs WHERE id = $1', [id]);
      return (rowCount ?? 0) > 0;
    },
    async setBudget(id, budget) {
      const { rowCount } = await sql.query('UPDATE runs SET budget_json = $1 WHERE id = $2', [codec.json(budget), id]);
      if (rowCount === 0) throw notFound(id);
    },
    async latestForMission(mission, configPath) {
      const { rows } = await sql.query(
        'SELECT * FROM runs WHERE mission = $1 AND config_path = $2 ORDER BY started_at DESC, id DESC LIMIT 1',
        [mission, configPath],
      );
      return rows[0] === undefined ? undefined : read(rows[0]);
    },
    async claimTraceContext(id, candidate) {
      // One statement: the row as it is after the claim, whoever won it.
      const { rows } = await sql.query(
        'UPDATE runs SET trace_context = COALESCE(trace_context, $1) WHERE id = $2 RETURNING trace_context',
        [candidate, id],
      );
      const stored = (rows[0] as { trace_context?: unknown } | undefined)?.trace_context;
      if (typeof stored !== 'string') throw notFound(id);
      return stored;
    },
  };
}
