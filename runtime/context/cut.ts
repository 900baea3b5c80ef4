// Where a long conversation may be cut, and the request a cut leaves. Pure functions over the
// session's messages (index 0 = seq 1). A cut always falls just before an assistant message, which
// is what keeps it safe for every provider: each tool_result sits in the user message right after
// the assistant message holding its tool_use, so the kept part never starts with a tool_result and
// never holds one without its call; and a head user message before it keeps the roles alternating.

import type { Message, Part } from '../providers/types.js';

export interface CutMessage {
  role: 'user' | 'assistant';
}

/** A stored view: the head message, then the messages from seq `keepFrom` on. */
export interface View {
  keepFrom: number;
  head: Part[];
}

/**
 * Index of the first message to keep so that the last `turns` model turns (assistant messages and
 * what follows them) stay verbatim; undefined when that keeps everything from `from` on already (no
 * assistant message after `from` would be dropped).
 */
export function keepStart(messages: readonly CutMessage[], from: number, turns: number): number | undefined {
  let seen = 0;
  for (let i = messages.length - 1; i > from; i--) {
    if (messages[i]?.role !== 'assistant') continue;
    seen += 1;
    if (seen === turns) return i;
  }
  return undefined;
}

/** Model turns (assistant messages) from index `from` on. */
export function turnsFrom(messages: readonly CutMessage[], from: number): number {
  let n = 0;
  for (let i = Math.max(from, 0); i < messages.length; i++) if (messages[i]?.role === 'assistant') n += 1;
  return n;
}

/**
 * Indices of the messages a compacted or pruned head is made from (head.ts): the model's replies
 * (tools used, earlier answers), the instructions, and the first user message (the task when no
 * message is marked as an instruction).
 */
export function headSources(messages: readonly (CutMessage & { kind?: string })[]): number[] {
  const out: number[] = [];
  let firstUser = true;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'assistant' || m.kind === 'instruction' || firstUser) out.push(i);
    if (m.role === 'user') firstUser = false;
  }
  return out;
}

/** The messages a request sends: everything, or the view's head and the messages it keeps. */
export function viewMessages(messages: readonly { role: 'user' | 'assistant'; parts: Part[] }[], view: View | undefined): Message[] {
  const kept = view === undefined ? messages : messages.slice(view.keepFrom - 1);
  const out: Message[] = kept.map((m) => ({ role: m.role, parts: m.parts }));
  if (view !== undefined) out.unshift({ role: 'user', parts: view.head });
  return out;
}
