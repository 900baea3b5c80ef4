// Identifiers and timestamps for stored rows: `run_`/`ses_`/`tsk_` + 20 crypto-random base32 characters
// (100 bits, so ids never collide across machines), and ISO-8601 UTC strings with milliseconds.

import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export type IdPrefix = 'run' | 'ses' | 'tsk' | 'unit' | 'rsv';

export function newId(prefix: IdPrefix): string {
  const bytes = randomBytes(20);
  let out = `${prefix}_`;
  // 256 is a multiple of 32, so taking the low five bits of each byte stays uniform.
  for (const b of bytes) out += BASE32[b & 31];
  return out;
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
