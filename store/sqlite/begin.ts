// Taking SQLite's write lock without blocking the thread. better-sqlite3 waits for a lock inside the
// call (busy_timeout: SQLite's busy handler sleeps 1, 2, 5, 10 … ms between tries), so a thread whose
// BEGIN meets another connection's write — a run thread's, another process's — stops everything it
// does until the lock is free, and notices it late. A transaction begins here instead with no wait in
// SQLite and retries from the event loop, soon, until BUSY_TIMEOUT_MS: the thread goes on meanwhile
// (a server parses and checks the next requests), and the same deadline ends in the same SQLITE_BUSY.

import type Database from 'better-sqlite3';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { isBusy } from '../errors.js';

/** How long a statement waits for another connection's lock before failing SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/** Tries made on the next turn of the event loop before waiting 1 ms between tries: a lock is held for one transaction, usually well under a millisecond. */
const SOON_TRIES = 3;

/** The deadline is wall time (Date.now), not a store's injected clock: a clock a test holds still must not make the wait endless. */
export async function beginImmediate(db: Database.Database): Promise<void> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 0; ; attempt += 1) {
    // exec, not db.pragma(): every transaction does both, and pragma() costs ~20 µs a call, exec ~1.
    db.exec('PRAGMA busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    } finally {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    await (attempt < SOON_TRIES ? nextTurn() : sleep(1));
  }
}
