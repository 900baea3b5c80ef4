// Identifiers and timestamps for stored rows: `run_`/`ses_`/`tsk_` + 20 crypto-random base32 characters
// (100 bits, so ids never collide across machines), and ISO-8601 UTC strings with milliseconds.

import { randomFillSync } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_BYTES = 20;

// Random bytes drawn 4 KB at a time, as crypto.randomUUID does: one system call per ~200 ids instead
// of one per id (a fan-out writes several ids per item). Each byte is used once.
const pool = Buffer.alloc(ID_BYTES * 204);
let poolOffset = pool.length;

export type IdPrefix = 'run' | 'ses' | 'tsk' | 'unit' | 'rsv';

export function newId(prefix: IdPrefix): string {
  if (poolOffset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = `${prefix}_`;
  // 256 is a multiple of 32, so taking the low five bits of each byte stays uniform.
  for (let i = poolOffset; i < poolOffset + ID_BYTES; i++) out += BASE32[pool[i]! & 31];
  poolOffset += ID_BYTES;
  return out;
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
