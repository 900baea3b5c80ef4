// Renews a run's lease on a timer while the run executes. A beat is a store write (a promise): no
// beat starts while one is in flight, a refused or failed beat reports the lease lost (the database
// is unusable or another process took over: stop rather than run unfenced), and stop() waits for the
// beat in flight, so nothing renews the lease after it is released.

export interface Heartbeat {
  stop(): Promise<void>;
}

export function startHeartbeat(beat: () => Promise<boolean>, onLost: () => void, everyMs: number): Heartbeat {
  let inFlight: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (inFlight) return;
    let beating: Promise<boolean>;
    try {
      beating = beat();
    } catch (error) {
      beating = Promise.reject(error);
    }
    inFlight = beating
      .then(
        (ours) => {
          if (!ours) onLost();
        },
        () => onLost(),
      )
      .finally(() => {
        inFlight = undefined;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
