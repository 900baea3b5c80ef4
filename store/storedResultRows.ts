// The one rule for a stored result's handle and the one reader of its stored payload, shared by the
// SQLite and PostgreSQL repositories.

import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { StoredPayload } from '../core/storedResults.js';
import type { ColumnCodec } from './columns.js';
import { StoreError } from './errors.js';

const PayloadSchema = z.object({
  format: z.enum(['json', 'text']),
  text: z.string(),
  images: z.array(z.object({ mediaType: z.string(), data: z.string() })),
  structured: z.unknown().optional(),
  resources: z.array(z.looseObject({ kind: z.enum(['resource', 'resource_link', 'audio']) })).optional(),
});

/** The payload as stored (redacted JSON), its content-addressed handle and its size. */
export function encodePayload(codec: ColumnCodec, payload: StoredPayload): { stored: string; handle: string; bytes: number } {
  const stored = codec.json(payload);
  const handle = `res_${createHash('sha256').update(stored).digest('hex').slice(0, 16)}`;
  return { stored, handle, bytes: Buffer.byteLength(stored, 'utf8') };
}

export function decodePayload(codec: ColumnCodec, handle: string, stored: string): StoredPayload {
  const parsed = PayloadSchema.safeParse(codec.readJson(stored));
  if (!parsed.success) throw new StoreError('CORRUPT_ROW', `unreadable stored_results row ${handle}: ${z.prettifyError(parsed.error)}`);
  return parsed.data as StoredPayload;
}
