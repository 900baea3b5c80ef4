// The parts of a long stored conversation, read from the store when first needed. A resumed session
// holds every message's head (role, kind, call id) but parts only for what it has read: a message
// not read yet holds a stub, an empty frozen array of its own whose JSON size the request estimate
// already knows (the stored size: runtime/budget/estimate.ts), so the context check of a long
// conversation reads only the messages it sends or builds a cut's head from, never the rest.

import type { MessageHead, Store } from '../../store/index.js';
import type { Part } from '../providers/types.js';
import type { SessionMessage } from '../agents/sessionTypes.js';
import { noteJsonBytes } from '../budget/estimate.js';

/** Every stub, with the stored size of the parts it stands for (undefined: not known without reading). */
const stubs = new WeakMap<readonly Part[], number | undefined>();

/** A stub for the parts of a stored message not read yet. */
export function unreadParts(head: Pick<MessageHead, 'bytes'>): Part[] {
  const stub = Object.freeze([]) as unknown as Part[];
  stubs.set(stub, head.bytes);
  if (head.bytes !== undefined) noteJsonBytes(stub, head.bytes);
  return stub;
}

/** Whether the message's parts are still in the store. */
export function isUnread(message: { parts: readonly Part[] }): boolean {
  return stubs.has(message.parts);
}

/** Whether the message's parts are still in the store with no size known (they must be read to be estimated). */
export function unsized(message: { parts: readonly Part[] }): boolean {
  return stubs.has(message.parts) && stubs.get(message.parts) === undefined;
}

/** Indices `from` … `to - 1`. */
export function* indices(from: number, to: number): Generator<number> {
  for (let i = Math.max(from, 0); i < to; i++) yield i;
}

/**
 * Reads, in one query, the parts of those of `messages[at]` that are still in the store (message i
 * is seq i + 1), in place. Returns how many it read.
 */
export async function readStoredParts(
  store: Pick<Store, 'messages'>,
  sessionId: string,
  messages: readonly SessionMessage[],
  at: Iterable<number>,
): Promise<number> {
  const seqs: number[] = [];
  for (const i of at) {
    const message = messages[i];
    if (message !== undefined && stubs.has(message.parts)) seqs.push(i + 1);
  }
  if (seqs.length === 0) return 0;
  const rows = await store.messages.listSeqs(sessionId, seqs);
  if (rows.length !== seqs.length) throw new Error(`${seqs.length - rows.length} of ${seqs.length} messages of session ${sessionId} were not read back`);
  for (const row of rows) {
    const message = messages[row.seq - 1]!;
    const bytes = stubs.get(message.parts);
    const parts = row.parts;
    // The stored text is the parts' JSON: the estimate need not serialise them again.
    if (bytes !== undefined) noteJsonBytes(parts, bytes);
    message.parts = parts;
  }
  return rows.length;
}
