// Units of work on PostgreSQL: the queue runners take work from. A claim is one transaction: the
// oldest queued unit, locked with FOR UPDATE SKIP LOCKED so concurrent claimers pass over each
// other's rows; failing that, a claimed unit whose holder is gone by the run-lease rule (leaseRules.ts),
// which a new runner resumes from the ledger. Every write of a holder is fenced by its owner id, so a
// runner that was taken over can no longer finish or renew the unit.

import { z } from 'zod';
import { isStale } from '../../leaseRules.js';
import { newId } from '../../ids.js';
import { parseRow } from '../../rowSchemas.js';
import type { LeaseOwner } from '../../repos/leases.js';
import type { ClaimFilter, UnitKey, UnitRow, UnitsRepo } from '../../repos/units.js';
import type { PgRepoContext, Sql } from '../context.js';
import { WORK_CHANNEL } from '../queueNotices.js';

// Built on first use, then kept: a coordinator reads its units in flight ten times a second.
let rawUnit: ReturnType<typeof buildRawUnit> | undefined;
const RawUnit = () => (rawUnit ??= buildRawUnit());
const buildRawUnit = () =>
  z.object({
    id: z.string(),
    run_id: z.string(),
    kind: z.enum(['run', 'task']),
    task: z.string(),
    attempt: z.number().int(),
    state: z.enum(['queued', 'claimed', 'cancelling', 'done', 'cancelled']),
    outcome_json: z.string().nullable(),
    owner: z.string().nullable(),
    pid: z.number().int().nullable(),
    host: z.string().nullable(),
    claims: z.number().int(),
    enqueued_at: z.string(),
    claimed_at: z.string().nullable(),
    heartbeat_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  });

export function createUnitsRepo({ sql, atomic, codec, clock, now, queued }: PgRepoContext): UnitsRepo {
  const read = (row: unknown): UnitRow => {
    const r = parseRow(RawUnit, 'work_units', row);
    const unit: UnitRow = { id: r.id, runId: r.run_id, kind: r.kind, task: r.task, attempt: r.attempt, state: r.state, claims: r.claims, enqueuedAt: r.enqueued_at };
    if (r.outcome_json !== null) unit.outcome = codec.readJson(r.outcome_json);
    if (r.owner !== null) unit.owner = r.owner;
    if (r.pid !== null) unit.pid = r.pid;
    if (r.host !== null) unit.host = r.host;
    if (r.claimed_at !== null) unit.claimedAt = r.claimed_at;
    if (r.heartbeat_at !== null) unit.heartbeatAt = r.heartbeat_at;
    if (r.finished_at !== null) unit.finishedAt = r.finished_at;
    return unit;
  };
  const byKey = async (on: Sql, key: UnitKey): Promise<UnitRow> => {
    const { rows } = await on.query('SELECT * FROM work_units WHERE run_id = $1 AND kind = $2 AND task = $3 AND attempt = $4', [key.runId, key.kind, key.task, key.attempt]);
    return read(rows[0]);
  };
  // `claims` counts the runners that took the unit, so a hand-over inside one process (a worker that
  // claimed a run's unit passes it to the run's own lease owner) is not counted as a take-over.
  const take = async (on: Sql, id: string, owner: LeaseOwner, handOver = false): Promise<UnitRow> => {
    const counted = handOver ? `CASE WHEN state = 'claimed' AND pid = $3 AND host = $4 THEN 0 ELSE 1 END` : '1';
    const { rows } = await on.query(
      `UPDATE work_units SET state = 'claimed', owner = $2, pid = $3, host = $4, claimed_at = $5, heartbeat_at = $5, claims = claims + ${counted}
       WHERE id = $1 RETURNING *`,
      [id, owner.id, owner.pid, owner.host, now()],
    );
    return read(rows[0]);
  };

  return {
    ...(queued ? { queued } : {}),
    async enqueue(key) {
      // The notice goes out when the statement commits, only when a unit was queued by it.
      await sql.query(
        `WITH q AS (
           INSERT INTO work_units (id, run_id, kind, task, attempt, state, enqueued_at) VALUES ($1, $2, $3, $4, $5, 'queued', $6)
           ON CONFLICT (run_id, kind, task, attempt) DO UPDATE
             SET state = 'queued', enqueued_at = EXCLUDED.enqueued_at, owner = NULL, pid = NULL, host = NULL, finished_at = NULL
             WHERE work_units.state = 'cancelled'
           RETURNING kind)
         SELECT pg_notify('${WORK_CHANNEL}', kind) FROM q`,
        [newId('unit'), key.runId, key.kind, key.task, key.attempt, now()],
      );
      return byKey(sql, key);
    },
    async requeue(key) {
      await sql.query(
        `WITH q AS (
           INSERT INTO work_units (id, run_id, kind, task, attempt, state, enqueued_at) VALUES ($1, $2, $3, $4, $5, 'queued', $6)
           ON CONFLICT (run_id, kind, task, attempt) DO UPDATE
             SET state = 'queued', enqueued_at = EXCLUDED.enqueued_at, owner = NULL, pid = NULL, host = NULL, outcome_json = NULL, claimed_at = NULL, heartbeat_at = NULL, finished_at = NULL
           RETURNING kind)
         SELECT pg_notify('${WORK_CHANNEL}', kind) FROM q`,
        [newId('unit'), key.runId, key.kind, key.task, key.attempt, now()],
      );
      return byKey(sql, key);
    },
    async claimOwn(key, owner) {
      return atomic(async (tx) => {
        const at = now();
        await tx.query(
          `INSERT INTO work_units (id, run_id, kind, task, attempt, state, enqueued_at) VALUES ($1, $2, $3, $4, $5, 'queued', $6)
           ON CONFLICT (run_id, kind, task, attempt) DO NOTHING`,
          [newId('unit'), key.runId, key.kind, key.task, key.attempt, at],
        );
        const { rows } = await tx.query('SELECT id FROM work_units WHERE run_id = $1 AND kind = $2 AND task = $3 AND attempt = $4 FOR UPDATE', [key.runId, key.kind, key.task, key.attempt]);
        return take(tx, String(rows[0]?.['id']), owner, true);
      });
    },
    claim(owner, staleAfterMs, filter: ClaimFilter = {}) {
      return atomic(async (tx) => {
        const kinds = [...(filter.kinds ?? ['run', 'task'])];
        const queued = await tx.query(
          `SELECT id FROM work_units WHERE state = 'queued' AND kind = ANY($1::text[]) AND ($2::text IS NULL OR run_id = $2)
           ORDER BY enqueued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [kinds, filter.runId ?? null],
        );
        const id = queued.rows[0]?.['id'];
        if (typeof id === 'string') return take(tx, id, owner);
        // No queued unit: one whose holder is gone, if any (a handful of rows: the units in flight).
        const held = await tx.query(
          `SELECT * FROM work_units WHERE state = 'claimed' AND owner <> $3 AND kind = ANY($1::text[]) AND ($2::text IS NULL OR run_id = $2)
           ORDER BY enqueued_at, id FOR UPDATE SKIP LOCKED`,
          [kinds, filter.runId ?? null, owner.id],
        );
        for (const row of held.rows) {
          const unit = read(row);
          const holder = { runId: unit.runId, owner: unit.owner ?? '', pid: unit.pid ?? 0, host: unit.host ?? '', acquiredAt: unit.claimedAt ?? '', heartbeatAt: unit.heartbeatAt ?? '' };
          if (isStale(holder, owner, staleAfterMs, clock())) return take(tx, unit.id, owner);
        }
        return undefined;
      });
    },
    async heartbeat(id, ownerId) {
      const { rowCount } = await sql.query(`UPDATE work_units SET heartbeat_at = $1 WHERE id = $2 AND owner = $3 AND state = 'claimed'`, [now(), id, ownerId]);
      return rowCount === 1;
    },
    async finish(id, ownerId, outcome) {
      const { rowCount } = await sql.query(
        `UPDATE work_units SET state = 'done', outcome_json = $1, finished_at = $2 WHERE id = $3 AND owner = $4 AND state IN ('claimed', 'cancelling')`,
        [codec.jsonOrNull(outcome), now(), id, ownerId],
      );
      return rowCount === 1;
    },
    async release(id, ownerId) {
      await sql.query(
        `WITH r AS (
           UPDATE work_units SET state = CASE WHEN state = 'cancelling' THEN 'cancelled' ELSE 'queued' END, owner = NULL, pid = NULL, host = NULL,
             finished_at = CASE WHEN state = 'cancelling' THEN $3::timestamptz ELSE NULL END
           WHERE id = $1 AND owner = $2 AND state IN ('claimed', 'cancelling')
           RETURNING state, kind)
         SELECT pg_notify('${WORK_CHANNEL}', kind) FROM r WHERE state = 'queued'`,
        [id, ownerId, now()],
      );
    },
    async cancel(id) {
      await sql.query(
        `UPDATE work_units SET state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE 'cancelling' END,
           finished_at = CASE WHEN state = 'queued' THEN $2::timestamptz ELSE NULL END
         WHERE id = $1 AND state IN ('queued', 'claimed')`,
        [id, now()],
      );
    },
    async get(id) {
      const { rows } = await sql.query('SELECT * FROM work_units WHERE id = $1', [id]);
      return rows[0] === undefined ? undefined : read(rows[0]);
    },
    async activeCount(runId, except) {
      const { rows } = await sql.query(
        `SELECT count(*)::int AS n FROM work_units WHERE run_id = $1 AND kind = 'task' AND state IN ('queued', 'claimed') AND NOT (task = $2 AND attempt = $3)`,
        [runId, except.task, except.attempt],
      );
      return Number(rows[0]?.['n'] ?? 0);
    },
    async getMany(ids) {
      if (ids.length === 0) return [];
      const { rows } = await sql.query('SELECT * FROM work_units WHERE id = ANY($1::text[])', [[...ids]]);
      return rows.map(read);
    },
    async list(runId) {
      const { rows } = await sql.query('SELECT * FROM work_units WHERE run_id = $1 ORDER BY enqueued_at, id', [runId]);
      return rows.map(read);
    },
  };
}
