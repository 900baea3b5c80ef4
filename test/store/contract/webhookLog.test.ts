// What became of each webhook delivery (migration 0022) on both backends: written by `serve`, read
// back per trigger path newest first with the status its run has now; an accepted delivery whose run
// is not stored yet reads as starting, one whose start was refused says why. No signature or key is
// kept in the log.

import { describe, expect, it } from 'vitest';
import { createSecretRedactor } from '../../../store/index.js';
import { useBackends } from './backends.js';

describe.each(useBackends())('$name store: the webhook delivery log', (backend) => {
  it('lists the deliveries of one trigger newest first, with their runs as stored now', async () => {
    const store = await backend.fresh();
    const run = await store.runs.create({ id: 'run_00000000000000a1', mission: 'digest', configPath: '/p/main.hcl', inputs: {} });
    await store.runs.setStatus(run.id, 'completed');
    const d = store.webhookDeliveries;
    await d.log({ path: 'digest', mission: 'digest', outcome: 'accepted', runId: run.id });
    await d.log({ path: 'digest', mission: 'digest', outcome: 'duplicate', runId: run.id });
    await d.log({ path: 'other', mission: 'other', outcome: 'refused', reason: 'not for this trigger' });
    await d.log({ path: 'digest', mission: 'digest', outcome: 'refused', reason: 'missing input topic' });
    // Accepted, its run still to be stored: starting.
    await store.transaction(async (tx) => {
      await tx.webhookDeliveries.accept({ runId: 'run_00000000000000a2', path: 'digest', mission: 'digest', inputs: {}, createdAt: new Date().toISOString() });
      await tx.webhookDeliveries.log({ path: 'digest', mission: 'digest', outcome: 'accepted', runId: 'run_00000000000000a2' });
    });
    const got = await d.recent('digest', 10);
    expect(got.map((x) => [x.outcome, x.runId ?? null, x.runStatus ?? null, x.starting, x.reason ?? null])).toEqual([
      ['accepted', 'run_00000000000000a2', null, true, null],
      ['refused', null, null, false, 'missing input topic'],
      ['duplicate', run.id, 'completed', false, null],
      ['accepted', run.id, 'completed', false, null],
    ]);
    expect(got.every((x) => x.mission === 'digest' && !Number.isNaN(Date.parse(x.createdAt)))).toBe(true);
    expect((await d.recent('digest', 2)).map((x) => x.outcome)).toEqual(['accepted', 'refused']);
    expect(await d.recent('nowhere', 10)).toEqual([]);

    // Its start refused after the 202: the entry says refused and why, and no longer starting.
    await d.refuseStarted('run_00000000000000a2', 'mission digest is no longer in the config');
    await d.settle('run_00000000000000a2');
    const first = (await d.recent('digest', 1))[0]!;
    expect([first.outcome, first.reason, first.starting]).toEqual(['refused', 'mission digest is no longer in the config', false]);
    // refuseStarted changes only the accepted entry of its run: a duplicate answered with it stays one.
    await d.refuseStarted(run.id, 'x');
    expect((await d.recent('digest', 10)).map((x) => x.outcome)).toEqual(['refused', 'refused', 'duplicate', 'refused']);
  });

  it('stores a reason with the secrets it may quote redacted, as every stored text', async () => {
    const secret = 'whsec-in-a-reason-0123';
    const store = await backend.fresh({ redactor: createSecretRedactor([{ name: 'vars.hook', value: secret }]) });
    await store.webhookDeliveries.log({ path: 'p', mission: 'm', outcome: 'refused', reason: `input key: "${secret}" is not allowed` });
    const [entry] = await store.webhookDeliveries.recent('p', 1);
    expect(entry!.reason).toBe('input key: "[REDACTED:vars.hook]" is not allowed');
    expect(await backend.dump(store)).not.toContain(secret);
  });
});

