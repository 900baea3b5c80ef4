// Webhook delivery claims on both backends: the first claim of a key wins and a second is refused,
// even from a second store on the same database; a claim that never got its run (its server died
// between the claim and the delivery's transaction) is taken over once CLAIM_ABANDONED_MS has passed,
// and a claim that has its run never is.

import { describe, expect, it } from 'vitest';
import { CLAIM_ABANDONED_MS } from '../../../store/repos/webhookDeliveries.js';
import { useBackends } from './backends.js';

describe.each(useBackends())('$name store: webhook delivery claims', (backend) => {
  it('refuses a second claim, takes over an abandoned one, and never one bound to its run', async () => {
    let t = Date.parse('2026-06-01T12:00:00.000Z');
    const clock = (): number => t;
    const store = await backend.fresh({ clock });
    const other = await backend.second(store, { clock });
    const d = store.webhookDeliveries;

    expect(await d.claim('digest', 'key', 'k1')).toBe(true);
    expect(await other.webhookDeliveries.claim('digest', 'key', 'k1')).toBe(false);
    expect(await d.runOf('digest', 'key', 'k1')).toBeNull();

    // Still within the window: another server is starting it.
    t += CLAIM_ABANDONED_MS - 1_000;
    expect(await other.webhookDeliveries.claim('digest', 'key', 'k1')).toBe(false);

    // Past it: abandoned, taken over by exactly one of two claimants.
    t += 2_000;
    const both = [await other.webhookDeliveries.claim('digest', 'key', 'k1'), await d.claim('digest', 'key', 'k1')];
    expect(both).toEqual([true, false]);

    // Bound to its run, a claim is never taken over, however old.
    await other.webhookDeliveries.setRun('digest', 'key', 'k1', 'run_00000000000000b1');
    t += 10 * CLAIM_ABANDONED_MS;
    expect(await d.claim('digest', 'key', 'k1')).toBe(false);
    expect(await d.runOf('digest', 'key', 'k1')).toBe('run_00000000000000b1');
  });
});
