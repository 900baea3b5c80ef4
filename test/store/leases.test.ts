import { spawn, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, openStore } from '../../store/index.js';
import { freshStore } from './fixtures.js';
import { procState } from '../support/procState.js';

const HOST = hostname();
const STALE_MS = 30_000;

/** A pid that existed a moment ago and no longer does. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['--version']);
  expect(isProcessAlive(child.pid)).toBe(false);
  return child.pid;
}

async function setup() {
  let t = Date.parse('2025-06-01T12:00:00.000Z');
  const clock = { advance: (ms: number) => (t += ms), now: () => t };
  const store = freshStore({ clock: clock.now });
  const runId = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
  return { store, runId, clock };
}

describe('leases', () => {
  it('acquires a free lease and re-acquires its own', async () => {
    const { store, runId, clock } = await setup();
    const me = { id: 'owner-a', pid: process.pid, host: HOST };
    expect(await store.leases.acquire(runId, me, STALE_MS)).toEqual({ ok: true });
    const first = await store.leases.get(runId);
    expect(first).toMatchObject({ owner: 'owner-a', pid: process.pid, host: HOST });
    clock.advance(1000);
    expect(await store.leases.acquire(runId, me, STALE_MS)).toEqual({ ok: true });
    expect(await store.leases.get(runId)).toMatchObject({ acquiredAt: first?.acquiredAt, heartbeatAt: '2025-06-01T12:00:01.000Z' });
  });

  it('refuses a live holder and names it', async () => {
    const { store, runId, clock } = await setup();
    await store.leases.acquire(runId, { id: 'owner-a', pid: process.pid, host: HOST }, STALE_MS);
    clock.advance(STALE_MS - 1);
    const result = await store.leases.acquire(runId, { id: 'owner-b', pid: process.pid, host: HOST }, STALE_MS);
    expect(result).toEqual({ ok: false, holder: expect.objectContaining({ owner: 'owner-a', pid: process.pid, host: HOST }) });
    expect((await store.leases.get(runId))?.owner).toBe('owner-a');
  });

  it('refuses a holder on another host even when its pid does not exist here', async () => {
    const { store, runId } = await setup();
    await store.leases.acquire(runId, { id: 'remote', pid: deadPid(), host: 'other-machine' }, STALE_MS);
    expect((await store.leases.acquire(runId, { id: 'local', pid: process.pid, host: HOST }, STALE_MS)).ok).toBe(false);
  });

  it('takes over a lease whose holder process on this host is dead, even with a fresh heartbeat', async () => {
    const { store, runId } = await setup();
    await store.leases.acquire(runId, { id: 'crashed', pid: deadPid(), host: HOST }, STALE_MS);
    expect(await store.leases.acquire(runId, { id: 'resumer', pid: process.pid, host: HOST }, STALE_MS)).toEqual({ ok: true });
    expect(await store.leases.get(runId)).toMatchObject({ owner: 'resumer', pid: process.pid });
  });

  it('takes over a lease whose heartbeat is older than the stale limit', async () => {
    const { store, runId, clock } = await setup();
    await store.leases.acquire(runId, { id: 'silent', pid: process.pid, host: 'other-machine' }, STALE_MS);
    clock.advance(STALE_MS + 1);
    expect(await store.leases.acquire(runId, { id: 'resumer', pid: process.pid, host: HOST }, STALE_MS)).toEqual({ ok: true });
    expect(await store.leases.get(runId)).toMatchObject({ owner: 'resumer', acquiredAt: '2025-06-01T12:00:30.001Z' });
  });

  it('a heartbeat keeps the lease fresh and reports false once the lease was taken over', async () => {
    const { store, runId, clock } = await setup();
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
    const { store, runId } = await setup();
    await store.leases.acquire(runId, { id: 'a', pid: process.pid, host: HOST }, STALE_MS);
    await store.leases.release(runId, 'b');
    expect((await store.leases.get(runId))?.owner).toBe('a');
    await store.leases.release(runId, 'a');
    expect(await store.leases.get(runId)).toBeUndefined();
    expect(await store.leases.acquire(runId, { id: 'b', pid: process.pid, host: HOST }, STALE_MS)).toEqual({ ok: true });
  });

  it('lets exactly one of two stores on the same file win a contested lease', async () => {
    const { store, runId, clock } = await setup();
    const second = openStore(store.path, { clock: clock.now });
    const a = await store.leases.acquire(runId, { id: 'a', pid: process.pid, host: HOST }, STALE_MS);
    const b = await second.leases.acquire(runId, { id: 'b', pid: process.pid, host: HOST }, STALE_MS);
    second.close();
    expect([a.ok, b.ok]).toEqual([true, false]);
  });

  it.runIf(process.platform === 'linux')('takes over from a holder that exited but was not reaped (a zombie)', async () => {
    // `exec sleep` replaces the shell with a process that never waits for the shell's child, so the
    // child stays a zombie until the sleep ends (killed below). The child exits only once its parent
    // is the sleep: exiting earlier, the shell itself might reap it.
    const script = 'child() { while [ "$(cat /proc/$1/comm)" != sleep ]; do sleep 0.01; done; }; child $$ & echo $!; exec sleep 600';
    const parent = spawn('/bin/sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
      await waitFor(() => procState(pid) === 'Z');
      expect(isProcessAlive(pid)).toBe(false);
      const { store, runId } = await setup();
      await store.leases.acquire(runId, { id: 'zombie', pid, host: HOST }, STALE_MS);
      expect(await store.leases.acquire(runId, { id: 'resumer', pid: process.pid, host: HOST }, STALE_MS)).toEqual({ ok: true });
    } finally {
      parent.kill('SIGKILL');
    }
    expect(isProcessAlive(process.pid)).toBe(true);
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
