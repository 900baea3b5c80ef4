// The parts of a long stored conversation, parsed when first needed. A resumed session holds every
// message's head (role, kind, call id) and, in place of its parts, a stub. A stub whose head carries
// the size of its parts (the stored JSON's, store migration 0014) is sized at once; for the others,
// before its first request the context fetches the rows it may estimate in one read (all of them, or
// those a stored cut keeps): a stub then knows its row and its size (runtime/budget/estimate.ts). The
// parts are parsed only for the messages the request sends or a cut's head is made from.

import { storedPartsBytes, type MessageRow, type Store } from '../../store/index.js';
import type { Part } from '../providers/types.js';
import type { SessionMessage } from '../kernel/session.js';
import { noteJsonBytes } from '../budget/estimate.js';

/** A stub: no parts; once fetched, its row (parts not parsed yet). */
class UnreadParts extends Array<Part> {
  // What map, filter or slice make of a stub is a plain array, never another stub.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  row: MessageRow | undefined;
  /** Whether the estimate knows the size of the parts (from the head or the fetched row). */
  sized = false;

  /** Serialising a stub (to size it or send it) is a bug: its size is noted when its row is fetched. */
  toJSON(): never {
    throw new Error('the parts of a stored message were used before they were read');
  }
}

/** A stub for the parts of a stored message not read yet; sized when its head tells `bytes`. */
export function unreadParts(bytes?: number): Part[] {
  const stub = new UnreadParts();
  if (bytes !== undefined) sizeStub(stub, bytes);
  return stub;
}

function sizeStub(stub: UnreadParts, bytes: number): void {
  noteJsonBytes(stub, bytes);
  stub.sized = true;
}

/** Whether the message's parts are still in the store (or in a fetched row, not parsed yet). */
export function isUnread(message: { parts: readonly Part[] }): boolean {
  return message.parts instanceof UnreadParts;
}

/** Indices `from` … `to - 1`. */
export function* indices(from: number, to: number): Generator<number> {
  for (let i = Math.max(from, 0); i < to; i++) yield i;
}

/**
 * Fetches, in one read, the rows of the stubs among messages `from`… the estimate cannot size yet, so
 * that each is sized (its row's stored size, or its parts parsed when the row cannot vouch for one).
 */
export async function fetchStoredRows(store: Pick<Store, 'messages'>, sessionId: string, messages: readonly SessionMessage[], from: number): Promise<void> {
  const seqs: number[] = [];
  for (const i of indices(from, messages.length)) if (unfetched(messages[i]!)) seqs.push(i + 1);
  if (seqs.length === 0) return;
  for (const row of await store.messages.listSeqs(sessionId, seqs)) {
    const message = messages[row.seq - 1];
    if (message === undefined || !unfetched(message)) continue;
    const bytes = storedPartsBytes(row);
    if (bytes === undefined) {
      message.parts = row.parts;
      continue;
    }
    const stub = message.parts as unknown as UnreadParts;
    stub.row = row;
    sizeStub(stub, bytes);
  }
}

/**
 * Parses, in place, the parts of those of `messages[at]` not read yet (message i is seq i + 1),
 * reading the rows not fetched before in one query. Returns how many it read.
 */
export async function readStoredParts(
  store: Pick<Store, 'messages'>,
  sessionId: string,
  messages: readonly SessionMessage[],
  at: Iterable<number>,
): Promise<number> {
  let read = 0;
  const seqs: number[] = [];
  for (const i of at) {
    const message = messages[i];
    if (message === undefined || !isUnread(message)) continue;
    const { row } = message.parts as unknown as UnreadParts;
    if (row === undefined) {
      seqs.push(i + 1);
      continue;
    }
    takeParts(message, row);
    read += 1;
  }
  if (seqs.length === 0) return read;
  const rows = await store.messages.listSeqs(sessionId, seqs);
  if (rows.length !== seqs.length) throw new Error(`${seqs.length - rows.length} of ${seqs.length} messages of session ${sessionId} were not read back`);
  for (const row of rows) takeParts(messages[row.seq - 1]!, row);
  return read + rows.length;
}

/** A stub the estimate cannot size yet: its head had no size and its row is not fetched. */
function unfetched(message: SessionMessage): boolean {
  return message.parts instanceof UnreadParts && message.parts.row === undefined && !message.parts.sized;
}

function takeParts(message: SessionMessage, row: MessageRow): void {
  const parts = row.parts;
  // The stored text is the parts' JSON: the estimate need not serialise them again.
  const bytes = storedPartsBytes(row);
  if (bytes !== undefined) noteJsonBytes(parts, bytes);
  message.parts = parts;
}
