// The lease heartbeat with an async beat: never two beats at once, a refused or failed beat reports
// the lease lost (no unhandled rejection), and stop() waits for the beat in flight.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHeartbeat } from '../../../runtime/schedule/leaseHeartbeat.js';

/** A beat the test settles by hand. */
function pendingBeats() {
  const settle: ((ours: boolean | Error) => void)[] = [];
  const beat = vi.fn(
    () =>
      new Promise<boolean>((resolve, reject) => {
        settle.push((ours) => (ours instanceof Error ? reject(ours) : resolve(ours)));
      }),
  );
  return { beat, settle };
}

describe('startHeartbeat', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts no beat while the previous one is still in flight', async () => {
    const { beat, settle } = pendingBeats();
    const heartbeat = startHeartbeat(beat, () => {}, 1000);
    await vi.advanceTimersByTimeAsync(3500);
    expect(beat).toHaveBeenCalledTimes(1);
    settle[0]!(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(beat).toHaveBeenCalledTimes(2);
    settle[1]!(true);
    await heartbeat.stop();
  });

  it('reports the lease lost when a beat is refused or fails, without an unhandled rejection', async () => {
    const lost = vi.fn();
    const { beat, settle } = pendingBeats();
    const heartbeat = startHeartbeat(beat, lost, 1000);
    await vi.advanceTimersByTimeAsync(1000);
    settle[0]!(false);
    await vi.advanceTimersByTimeAsync(1000);
    settle[1]!(new Error('database is locked'));
    await vi.advanceTimersByTimeAsync(0);
    expect(lost).toHaveBeenCalledTimes(2);
    await heartbeat.stop();
    const throwing = startHeartbeat(() => {
      throw new Error('closed');
    }, lost, 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(lost).toHaveBeenCalledTimes(3);
    await throwing.stop();
  });

  it('waits in stop() for the beat in flight, and beats no more after it', async () => {
    const { beat, settle } = pendingBeats();
    const heartbeat = startHeartbeat(beat, () => {}, 1000);
    await vi.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = heartbeat.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    settle[0]!(true);
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(beat).toHaveBeenCalledTimes(1);
  });
});
