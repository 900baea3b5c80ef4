// The conventions' opt-in content attributes (capture_content = true): a tool call's arguments and
// result (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`) and a model call's reply
// (`gen_ai.output.messages`), read back from the store, where the run wrote them in the transaction
// that emitted the event (so read once it has committed: a few tries, a short wait between). Every
// value is masked with the run's secret redactor first: no secret leaves, whatever is opted in.

import type { Part } from '../core/messages.js';
import type { ToolResult } from '../core/toolResults.js';
import type { Redactor, Store } from '../store/index.js';

const TRIES = 20;
const WAIT_MS = 25;

export interface ContentReader {
  toolCall(sessionId: string, callId: string): Promise<{ arguments: string; result?: string } | undefined>;
  /** `gen_ai.output.messages` of the session's reply at `turn`, as JSON text. */
  turnOutput(sessionId: string, turn: number, finishReason: string): Promise<string | undefined>;
}

export function contentReader(store: Store, redactor: Redactor): ContentReader {
  const mask = (value: unknown): string => redactor.mask(JSON.stringify(value));
  /** The last seq read per session, so each reply is found without reading the session again. */
  const readUpTo = new Map<string, number>();
  return {
    async toolCall(sessionId, callId) {
      const row = await until(async () => {
        const r = await store.ledger.get(sessionId, callId);
        return r?.status === 'completed' ? r : undefined;
      });
      if (row === undefined) return undefined;
      return { arguments: mask(row.input), ...(row.result ? { result: mask(resultText(row.result)) } : {}) };
    },
    async turnOutput(sessionId, turn, finishReason) {
      const rows = await until(async () => {
        const list = await store.messages.list(sessionId, (readUpTo.get(sessionId) ?? 0) + 1);
        return list.some((m) => m.role === 'assistant' && m.turn === turn) ? list : undefined;
      });
      if (rows === undefined) return undefined;
      readUpTo.set(sessionId, Math.max(readUpTo.get(sessionId) ?? 0, ...rows.map((m) => m.seq)));
      const reply = rows.filter((m) => m.role === 'assistant' && m.turn === turn);
      return mask(reply.map((m) => ({ role: 'assistant', parts: m.parts.flatMap(outputPart), finish_reason: finishReason })));
    },
  };
}

/** A part as the conventions' output message schema writes it (text, tool_call, reasoning). */
function outputPart(p: Part): Record<string, unknown>[] {
  if (p.type === 'text') return [{ type: 'text', content: p.text }];
  if (p.type === 'tool_use') return [{ type: 'tool_call', id: p.id, name: p.name, arguments: p.input }];
  if (p.type === 'thinking') return [{ type: 'reasoning', content: p.text }];
  return [];
}

function resultText(r: ToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('');
}

async function until<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
  for (let i = 0; i < TRIES; i++) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, WAIT_MS));
  }
  return undefined;
}
