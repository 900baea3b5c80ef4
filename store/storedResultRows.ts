// The one rule for a stored result's handle and the one reader of its stored payload, shared by the
// SQLite and PostgreSQL repositories.

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { textOfParts, type Part } from '../core/messages.js';
import type { StoredPayload } from '../core/storedResults.js';
import type { QuotedAnswer } from '../core/toolResults.js';
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

/** An answer shorter than this is stored with its result as it is: a reference would save little. */
const MIN_QUOTED_CHARS = 1024;

/** The agent's latest message, as its row holds it (its parts' stored JSON). */
export interface AnswerRow {
  id: number;
  partsJson: string;
}

/** What a put stores: the payload whole, or without the answer it quotes (then where it goes back, from which message). */
export interface PayloadForm {
  stored: string;
  quote?: { messageId: number; at: number };
}

/**
 * The stored form of a payload. A payload whose text quotes an agent's whole answer (JSON-escaped,
 * once) is stored without it when the agent's message says exactly that answer: the message holds
 * the text, and the read puts it back (quotedPayload). Anything else is stored whole.
 */
export function payloadForm(codec: ColumnCodec, payload: StoredPayload, wholeStored: string, quotes: QuotedAnswer | undefined, answer: AnswerRow | undefined): PayloadForm {
  if (quotes === undefined || answer === undefined) return { stored: wholeStored };
  const escaped = JSON.stringify(quotes.text).slice(1, -1);
  if (escaped.length < MIN_QUOTED_CHARS) return { stored: wholeStored };
  const at = payload.text.indexOf(escaped);
  if (at < 0 || payload.text.indexOf(escaped, at + 1) >= 0) return { stored: wholeStored };
  if (answerText(codec, answer.partsJson) !== quotes.text) return { stored: wholeStored };
  const cut: StoredPayload = { ...payload, text: payload.text.slice(0, at) + payload.text.slice(at + escaped.length) };
  return { stored: codec.json(cut), quote: { messageId: answer.id, at } };
}

/** A payload read back: the quoted answer, when it was stored by reference, put back where it was. */
export function quotedPayload(codec: ColumnCodec, handle: string, stored: string, quote: { at: number; partsJson: string } | undefined): StoredPayload {
  const payload = decodePayload(codec, handle, stored);
  if (quote === undefined) return payload;
  const escaped = JSON.stringify(answerText(codec, quote.partsJson)).slice(1, -1);
  return { ...payload, text: payload.text.slice(0, quote.at) + escaped + payload.text.slice(quote.at) };
}

function answerText(codec: ColumnCodec, partsJson: string): string {
  const parts = codec.readJson(partsJson);
  return Array.isArray(parts) ? textOfParts(parts as Part[]) : '';
}
