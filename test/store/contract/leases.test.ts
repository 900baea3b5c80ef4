// The run lease's contract on every backend: taken when free, ours or stale (old heartbeat, or a dead
// pid on this host), renewed by heartbeats, released only by its owner, and never won by two.

import { spawn, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../store/index.js';
import { procState } from '../../support/procState.js';
import { useBackends, type Backend } from './backends.js';

const HOST = hostname();
const STALE_MS = 30_000;

/** A pid that existed a moment ago and no longer does. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['--version']);
  expect(isProcessAlive(child.pid)).toBe(false);
  return child.pid;
}

async function setup(backend: Backend) {
  let t = Date.parse('2025-06-01T12:00:00.000Z');
  const clock = { advance: (ms: number) => (t += ms), now: () => t };
  const store = await backend.fresh({ clock: clock.now });
  const runId = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
  return { store, runId, clock };
}

describe.each(useBackends())('$name leases', (backend) => {
  it('acquires a free lease and re-acquires its own', async () => {
    const { store, runId, clock } = await setup(backend);
    const me = { id: 'owner-a', pid: process.pid, host: HOST };
    expect(await store.leases.acquire(runId, me, STALE_MS)).toEqual({ ok: true });
    const first = await store.leases.get(runId);
    expect(first).toEqual({ runId, owner: 'owner-a', pid: process.pid, host: HOST, acquiredAt: '2025-06-01T12:00:00.000Z', heartbeatAt: '2025-06-01T12:00:00.000Z' });
    clock.advance(1000);
    expect(await store.leases.acquire(runId, me, STALE_MS)).toEqual({ ok: true });
    expect(await store.leases.get(runId)).toMatchObject({ acquiredAt: first?.acquiredAt, heartbeatAt: '2025-06-01T12:00:01.000Z' });
    expect(await store.leases.get('run_other')).toBeUndefined();
  });

  it('refuses a live holder and names it', async () => {
    const { store, runId, clock } = await setup(backend);
    await store.leases.acquire(runId, { id: 'owner-a', pid: process.pid, host: HOST }, STALE_MS);
    clock.advance(STALE_MS - 1);
    const result = await store.leases.acquire(runId, { id: 'owner-b', pid: process.pid, host: HOST }, STALE_MS);
    expect(result).toEqual({ ok: false, holder: expect.objectContaining({ owner: 'owner-a', pid: process.pid, host: HOST }) });
    expect((await store.leases.get(runId))?.owner).toBe('owner-a');
    expect(await store.leases.isLive(runId, HOST, STALE_MS)).toBe(true);
  });

  it('refuses a holder on another host even when its pid does not exist here', async () => {
    const { store, runId } = await setup(backend);
    await store.leases.acquire(runId, { id: 'remote', pid: deadPid(), host: 'other-machine' }, STALE_MS);
    expect((await store.leases.acquire(runId, { id: 'local', pid: process.pid, host: HOST }, STALE_MS)).ok).toBe(false);
    expect(await store.leases.isLive(runId, HOST, STALE_MS)).toBe(true);
  });

  it('takes over a lease whose holder process on this host is dead, even with a fresh heartbeat', async () => {
    const { store, runId } = await setup(backend);
    await store.leases.acquire(runId, { id: 'crashed', pid: deadPid(), host: HOST }, STALE_MS);
    expect(await store.leases.isLive(runId, HOST, STALE_MS)).toBe(false);
    expect(await store.leases.acquire(runId, { id: 'resumer', pid: process.pid, host: HOST }, STALE_MS)).toEqual({ ok: true });
    expect(await store.leases.get(runId)).toMatchObject({ owner: 'resumer', pid: process.pid });
  });

  it('takes over a lease whose heartbeat is older than the stale limit', async () => {
    const { store, runId, clock } = await setup(backend);
    await store.leases.acquire(runId, { id: 'silent', pid: process.pid, host: 'other-machine' }, STALE_MS);
    clock.advance(STALE_MS + 1);
    expect(await store.leases.isLive(runId, HOST, STALE_MS)).toBe(false);
    expect(await store.leases.acquire(runId, { id: 'resumer', pid: process.pid, host: HOST }, STALE_MS)).toEqual({ ok: true });
    expect(await store.leases.get(runId)).toMatchObject({ owner: 'resumer', acquiredAt: '2025-06-01T12:00:30.001Z' });
  });

  it('a heartbeat keeps the lease fresh and reports false once the lease was taken over', async () => {
    const { store, runId, clock } = await setup(backend);
    const old = { id: 'old', pid: process.pid, host: 'other-machine' };
    await store.leases.acquire(runId, old, STALE_MS);
    clock.advance(STALE_MS - 1);
    expect(await store.leases.heartbeat(runId, 'old')).toBe(true);
    clock.advance(STALE_MS - 1);
    expect((await store.leases.acquire(runId, { id: 'new', pid: process.pid, host: HOST }, STALE_MS)).ok).toBe(false);
    clock.advance(2);
    expect((await store.leases.acquire(runId, { id: 'new', pid: process.pid, host: HOST }, STALE_MS)).ok).toBe(true);
    expect(await store.leases.heartbeat(runId, 'old')).toBe(false);
    expect(await store.leases.heartbeat(runId, 'new')).toBe(true);
  });

  it('releases only its own lease', async () => {
    const { store, runId } = await setup(backend);
    await store.leases.acquire(runId, { id: 'a', pid: process.pid, host: HOST }, STALE_MS);
    await store.leases.release(runId, 'b');
    expect((await store.leases.get(runId))?.owner).toBe('a');
    await store.leases.release(runId, 'a');
    expect(await store.leases.get(runId)).toBeUndefined();
    expect(await store.leases.isLive(runId, HOST)).toBe(false);
    expect(await store.leases.acquire(runId, { id: 'b', pid: process.pid, host: HOST }, STALE_MS)).toEqual({ ok: true });
  });

  it('lets exactly one of two stores on the same database win a contested lease', async () => {
    const { store, runId, clock } = await setup(backend);
    const second = await backend.second(store, { clock: clock.now });
    const a = await store.leases.acquire(runId, { id: 'a', pid: process.pid, host: HOST }, STALE_MS);
    const b = await second.leases.acquire(runId, { id: 'b', pid: process.pid, host: HOST }, STALE_MS);
    expect([a.ok, b.ok]).toEqual([true, false]);
  });

  it('lets exactly one of many concurrent acquirers win, free or stale lease alike', async () => {
    const { store, runId, clock } = await setup(backend);
    // PostgreSQL: four pools racing. SQLite: one store's calls interleaved (two SQLite connections in
    // one process cannot race: a writer waiting for the lock blocks the event loop the other needs).
    const others = backend.name === 'postgres' ? await Promise.all(Array.from({ length: 3 }, () => backend.second(store, { clock: clock.now }))) : [];
    const stores = [store, ...others];
    for (const round of ['free', 'stale']) {
      const results = await Promise.all(
        stores.flatMap((s, i) => [0, 1].map((j) => s.leases.acquire(runId, { id: `${round}-${i}-${j}`, pid: process.pid, host: 'elsewhere' }, STALE_MS))),
      );
      const winners = results.flatMap((r, k) => (r.ok ? [k] : []));
      expect(winners, round).toHaveLength(1);
      const holder = await store.leases.get(runId);
      for (const r of results) if (!r.ok) expect(r.holder.owner).toBe(holder?.owner);
      clock.advance(STALE_MS + 1);
    }
  });

  it.runIf(process.platform === 'linux')('takes over from a holder that exited but was not reaped (a zombie)', async () => {
    const script = 'child() { while [ "$(cat /proc/$1/comm)" != sleep ]; do sleep 0.01; done; }; child $$ & echo $!; exec sleep 600';
    const parent = spawn('/bin/sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
      await waitFor(() => procState(pid) === 'Z');
      expect(isProcessAlive(pid)).toBe(false);
      const { store, runId } = await setup(backend);
      await store.leases.acquire(runId, { id: 'zombie', pid, host: HOST }, STALE_MS);
      expect(await store.leases.acquire(runId, { id: 'resumer', pid: process.pid, host: HOST }, STALE_MS)).toEqual({ ok: true });
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

/** Polls a condition that the kernel makes true soon (no fixed sleep; generous overall bound). */
async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
