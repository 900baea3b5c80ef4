// Pruning what `squadron serve` keeps beside its runs (repos/serviceHistory.ts), on both backends:
// each kind counted the same dry as it is deleted; rows of runs gone and older than the cutoff go;
// an idempotency key not before its window ends, a signature not before its own; never a delivery
// whose run is still to start, nor a schedule's last fire, nor a row of a run still kept.
// And a schedule fire given back (its server drained before its run started) may be claimed again.

import { describe, expect, it } from 'vitest';
import type { HistoryPrunePolicy, Store } from '../../../store/index.js';
import { useBackends } from './backends.js';

const DAY = 86_400_000;
const T0 = Date.parse('2031-01-01T00:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const RUN_A = 'run_0000000000000a01'; // finished, pruned with the first call
const RUN_B = 'run_0000000000000b01'; // finished, kept
const RUN_P = 'run_0000000000000c01'; // accepted by a webhook, not started yet

describe.each(useBackends())('$name store: pruning the service history', (backend) => {
  async function seed(): Promise<{ store: Store; at: (ms: number) => void }> {
    let now = T0;
    const store = await backend.fresh({ clock: () => now });
    for (const id of [RUN_A, RUN_B]) {
      await store.runs.create({ id, mission: 'digest', configPath: '/p/main.hcl', inputs: {} });
      await store.runs.setStatus(id, 'completed');
    }
    const d = store.webhookDeliveries;
    await d.log({ path: 'digest', mission: 'digest', outcome: 'accepted', runId: RUN_A });
    await d.log({ path: 'digest', mission: 'digest', outcome: 'duplicate', runId: RUN_A });
    await d.log({ path: 'digest', mission: 'digest', outcome: 'refused', reason: 'missing input topic' });
    await d.log({ path: 'digest', mission: 'digest', outcome: 'accepted', runId: RUN_B });
    await d.log({ path: 'digest', mission: 'digest', outcome: 'accepted', runId: RUN_P });
    for (const [kind, value, runId] of [['key', 'k-old', RUN_A], ['key', 'k-pending', RUN_P], ['key', 'k-orphan', undefined], ['signature', 'sig-a', RUN_A], ['signature', 'sig-b', RUN_B]] as const) {
      expect(await d.claim('digest', kind, value)).toBe(true);
      if (runId !== undefined) await d.setRun('digest', kind, value, runId);
    }
    // Deliveries accepted: A's and B's runs are stored (started), P's is not.
    for (const runId of [RUN_A, RUN_B, RUN_P]) await d.accept({ runId, path: 'digest', mission: 'digest', inputs: {}, createdAt: iso(T0) });
    const fires: [string, number, string | undefined][] = [['digest.0', T0 - 3_600_000, RUN_B], ['digest.0', T0, RUN_A], ['digest.0', T0 + 3_600_000, RUN_A], ['digest.1', T0, undefined]];
    for (const [id, at, runId] of fires) {
      expect(await store.schedules.claimFire(id, iso(at))).toBe(true);
      if (runId !== undefined) await store.schedules.setFireRun(id, iso(at), runId);
    }
    for (const runId of [RUN_A, RUN_B, RUN_P, 'run_0000000000000d01']) await store.runCancels.request(runId, 'token ci');
    // Two days later: a refused delivery and a signature without a run.
    now = T0 + 2 * DAY;
    await d.log({ path: 'digest', mission: 'digest', outcome: 'refused', reason: 'bad body' });
    await d.claim('digest', 'signature', 'sig-young');
    now = T0 + 9 * DAY;
    await d.claim('digest', 'key', 'k-young');
    await d.setRun('digest', 'key', 'k-young', RUN_A);
    return { store, at: (ms) => (now = ms) };
  }

  const rows = async (store: Store): Promise<Record<string, unknown[]>> => ({
    deliveries: (await backend.exec(store, 'SELECT value FROM webhook_deliveries ORDER BY value')).map((r) => r['value']),
    log: (await backend.exec(store, 'SELECT outcome, run_id FROM webhook_log ORDER BY id')).map((r) => `${String(r['outcome'])} ${String(r['run_id'])}`),
    fires: (await backend.exec(store, 'SELECT schedule_id, fire_at FROM schedule_fires ORDER BY schedule_id, fire_at')).map((r) => `${String(r['schedule_id'])} ${iso(new Date(r['fire_at'] as string).getTime())}`),
    cancels: (await backend.exec(store, 'SELECT run_id FROM run_cancels ORDER BY run_id')).map((r) => r['run_id']),
    waiting: (await backend.exec(store, 'SELECT run_id FROM webhook_runs ORDER BY run_id')).map((r) => r['run_id']),
  });

  it('counts dry what it deletes, keeps what a guarantee needs, and forgets keys only after their window', async () => {
    const { store } = await seed();
    // "Now" is T0 + 3 days, the cutoff one day after T0 (--older-than 2d); run A is pruned with it.
    const first: HistoryPrunePolicy = { before: iso(T0 + DAY), keysBefore: iso(T0 - 4 * DAY), signaturesBefore: iso(T0 + DAY), goneRuns: [RUN_A], dryRun: true };
    const everything = await rows(store);
    const expected = { deliveryLog: 3, idempotencyKeys: 0, signatures: 1, scheduleFires: 1, runCancels: 2, startedDeliveries: 2 };
    expect(await store.serviceHistory.prune(first)).toEqual(expected);
    expect(await rows(store)).toEqual(everything);
    expect(await store.transaction((tx) => tx.serviceHistory.prune({ ...first, dryRun: false }))).toEqual(expected);
    expect(await rows(store)).toEqual({
      deliveries: ['k-old', 'k-orphan', 'k-pending', 'k-young', 'sig-b', 'sig-young'],
      // A's entries and the old refusal go; B's (kept), P's (still to start) and the young refusal stay.
      log: [`accepted ${RUN_B}`, `accepted ${RUN_P}`, 'refused null'],
      // digest.0's fire of run A goes, not its last one (also run A's), nor the one of run B; digest.1's only fire stays.
      fires: [`digest.0 ${iso(T0 - 3_600_000)}`, `digest.0 ${iso(T0 + 3_600_000)}`, `digest.1 ${iso(T0)}`],
      cancels: [RUN_B, RUN_P],
      waiting: [RUN_P],
    });
    expect((await store.webhookDeliveries.pending(iso(T0 + 1))).map((p) => p.runId)).toEqual([RUN_P]);
    // Only deliveries accepted before the time asked: P was accepted at T0.
    expect(await store.webhookDeliveries.pending(iso(T0))).toEqual([]);
    await store.runs.remove(RUN_A);

    // Ten days after T0, --older-than 0m: keys older than 7 days whose run is gone (or never was) go now.
    const now = T0 + 10 * DAY;
    const second: HistoryPrunePolicy = { before: iso(now), keysBefore: iso(now - 7 * DAY), signaturesBefore: iso(now - 3_600_000), goneRuns: [], dryRun: false };
    expect(await store.serviceHistory.prune(second)).toEqual({ deliveryLog: 1, idempotencyKeys: 2, signatures: 1, scheduleFires: 0, runCancels: 0, startedDeliveries: 0 });
    const left = await rows(store);
    expect(left.deliveries).toEqual(['k-pending', 'k-young', 'sig-b']);
    expect(await store.webhookDeliveries.runOf('digest', 'key', 'k-young')).toBe(RUN_A);
    expect(await store.webhookDeliveries.runOf('digest', 'key', 'k-old')).toBeUndefined();
    expect(left.log).toEqual([`accepted ${RUN_B}`, `accepted ${RUN_P}`]);
    expect(left.fires).toHaveLength(3);
    expect(await store.serviceHistory.prune(second)).toEqual({ deliveryLog: 0, idempotencyKeys: 0, signatures: 0, scheduleFires: 0, runCancels: 0, startedDeliveries: 0 });
  });

  it('a fire given back without its run may be claimed again; one with its run stays claimed', async () => {
    const store = await backend.fresh({ clock: () => T0 });
    const s = store.schedules;
    expect(await s.claimFire('digest.0', iso(T0))).toBe(true);
    await s.releaseFire('digest.0', iso(T0));
    expect(await s.claimFire('digest.0', iso(T0))).toBe(true);
    expect(await s.claimFire('digest.0', iso(T0))).toBe(false);
    await s.setFireRun('digest.0', iso(T0), RUN_A);
    await s.releaseFire('digest.0', iso(T0));
    expect(await s.claimFire('digest.0', iso(T0))).toBe(false);
    expect(await s.recentFires('digest.0', 5)).toEqual([{ fireAt: iso(T0), runId: RUN_A }]);
  });

  it('prunes nothing from an empty database, on a store bound to a transaction or not', async () => {
    const store = await backend.fresh();
    const policy: HistoryPrunePolicy = { before: iso(Date.now()), keysBefore: iso(Date.now()), signaturesBefore: iso(Date.now()), goneRuns: [], dryRun: false };
    const none = { deliveryLog: 0, idempotencyKeys: 0, signatures: 0, scheduleFires: 0, runCancels: 0, startedDeliveries: 0 };
    expect(await store.serviceHistory.prune(policy)).toEqual(none);
    expect(await store.transaction((tx) => tx.serviceHistory.prune({ ...policy, dryRun: true }))).toEqual(none);
  });
});

