// The claim loop of runners (runtime/schedule/unitRunner.ts) against an in-memory queue: it never holds more
// than `concurrency` units, claims again as soon as a slot frees, keeps polling an empty queue, and
// on stop claims nothing more and returns only after the units in flight were handled.

import { describe, expect, it } from 'vitest';
import type { UnitRow, UnitsRepo } from '../../../store/index.js';
import { runUnitLoop } from '../../../runtime/schedule/unitRunner.js';

function queueOf(count: number): { units: UnitsRepo; claims: () => number } {
  const rows: UnitRow[] = Array.from({ length: count }, (_, i) => ({
    id: `unit_${i}`,
    runId: 'run_1',
    kind: 'task',
    task: `t${i}`,
    attempt: 1,
    state: 'queued',
    claims: 0,
    enqueuedAt: new Date(0).toISOString(),
  }));
  let claims = 0;
  const units = {
    async claim() {
      const next = rows.find((r) => r.state === 'queued');
      if (!next) return undefined;
      next.state = 'claimed';
      claims += 1;
      return next;
    },
  } as unknown as UnitsRepo;
  return { units, claims: () => claims };
}

const owner = { id: 'own_1', pid: process.pid, host: 'h' };

describe('runUnitLoop', () => {
  it('holds at most `concurrency` units at once and takes the next as soon as one finishes', async () => {
    const { units } = queueOf(7);
    const stop = new AbortController();
    let inFlight = 0;
    let most = 0;
    const handled: string[] = [];
    const releases: (() => void)[] = [];
    const loop = runUnitLoop({
      units,
      owner,
      filter: {},
      concurrency: 3,
      pollMs: 5,
      staleAfterMs: 15_000,
      stop: stop.signal,
      handle: async (unit) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight -= 1;
        handled.push(unit.task);
        if (handled.length === 7) stop.abort();
      },
    });
    // Release units one at a time as they arrive, until all seven were handled.
    while (handled.length < 7) {
      const release = releases.shift();
      if (release) release();
      await new Promise((r) => setTimeout(r, 1));
    }
    await loop;
    expect(most).toBe(3);
    expect(handled.sort()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
  });

  it('on stop claims nothing more and waits for the units in flight', async () => {
    const { units, claims } = queueOf(10);
    const stop = new AbortController();
    let finished = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const loop = runUnitLoop({
      units,
      owner,
      filter: {},
      concurrency: 2,
      pollMs: 5,
      staleAfterMs: 15_000,
      stop: stop.signal,
      handle: async () => {
        started += 1;
        await gate;
        finished += 1;
      },
    });
    while (started < 2) await new Promise((r) => setTimeout(r, 1));
    stop.abort();
    let returned = false;
    void loop.then(() => (returned = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(returned).toBe(false);
    release();
    await loop;
    expect(finished).toBe(2);
    expect(claims()).toBe(2);
  });
});
