// The server's loops (the scheduler, the notifier) outlive a failing database: a store call that
// fails for a reason worth waiting out (the database held by another process past its busy timeout,
// a dropped PostgreSQL connection) is logged (its message only) and tried again with backoff until
// it succeeds or the server drains. A refusal (SquadronError) is an answer, not a failure: it is
// thrown at once, as is anything once the server drains.

import { setTimeout as sleep } from 'node:timers/promises';
import { SquadronError } from '../api/index.js';
import { errorText, type Log } from './log.js';
import { DrainingError } from './runPool.js';

const FIRST_MS = 500;
const MAX_MS = 30_000;

export async function retrying<T>(what: string, fn: () => Promise<T>, opts: { log: Log; stop: AbortSignal; fields?: Record<string, unknown> }): Promise<T> {
  let delay = FIRST_MS;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof SquadronError || error instanceof DrainingError || opts.stop.aborted) throw error;
      opts.log('warn', `${what} failed; trying again`, { ...opts.fields, error: errorText(error), retry_in_ms: delay });
      // Cut short when the server drains: a failure of the next try is then thrown.
      await sleep(delay, undefined, { signal: opts.stop }).catch(() => undefined);
      delay = Math.min(delay * 2, MAX_MS);
    }
  }
}
