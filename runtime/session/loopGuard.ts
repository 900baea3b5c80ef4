// Runaway guards of an agent session, read from its conversation (so a resumed session judges the
// same way): the same tool called with identical arguments `maxRepeatedCalls` times in a row is
// answered with a correction instead of being run, and once more stops the session; a session whose
// tool results bring nothing new for `maxTurnsWithoutProgress` turns in a row is stopped too.
// `LoopWatch` keeps what the guards need as the conversation grows, so a turn judges its own
// messages instead of hashing every earlier result again (a 10,000-turn session stays flat).

import { createHash } from 'node:crypto';
import type { LoopGuard } from '../../config/graph.js';
import { canonicalJson } from '../../core/canonicalJson.js';
import { renderPrompt } from '../../core/promptTemplates.js';
import type { ToolResultPart, ToolUsePart } from '../providers/types.js';
import type { ToolResult } from '../tools/types.js';
import type { SessionMessage } from '../kernel/session.js';

export const DEFAULT_MAX_REPEATED_CALLS = 3;
export const DEFAULT_MAX_TURNS_WITHOUT_PROGRESS = 8;

export type RepeatVerdict =
  | { kind: 'ok' }
  /** These calls are answered with the correction, not run. */
  | { kind: 'correct'; answers: Map<string, ToolResult>; tool: string; count: number; message: string }
  | { kind: 'stop'; tool: string; count: number; reason: string };

/** A run of identical calls at the end of the conversation's calls: their key, and how many in a row. */
interface Run {
  key: string;
  count: number;
}

/**
 * The guards' state over a conversation, kept up message by message: the run of identical calls at
 * its end (and as it was before the latest assistant message, whose calls are the ones judged), and
 * the digests of every tool result seen with the number of result turns since one was new.
 */
export class LoopWatch {
  private tail: Run = { key: '', count: 0 };
  private beforeLatest: Run = { key: '', count: 0 };
  private readonly seen = new Set<string>();
  private idle = 0;

  /** A watch that has seen `messages` (their parts read). */
  static over(messages: readonly SessionMessage[]): LoopWatch {
    const watch = new LoopWatch();
    for (const message of messages) watch.observe(message);
    return watch;
  }

  /** Takes in the message added at the end of the conversation. */
  observe(message: SessionMessage): void {
    if (message.role === 'assistant') {
      this.beforeLatest = this.tail;
      for (const part of message.parts) {
        if (part.type !== 'tool_use') continue;
        const key = callKey(part);
        this.tail = { key, count: key === this.tail.key ? this.tail.count + 1 : 1 };
      }
      return;
    }
    if (message.kind !== 'tool_results') return;
    let fresh = false;
    for (const part of message.parts) {
      if (part.type !== 'tool_result') continue;
      const digest = resultDigest(part);
      if (!this.seen.has(digest)) {
        this.seen.add(digest);
        fresh = true;
      }
    }
    this.idle = fresh ? 0 : this.idle + 1;
  }

  /** Judges `calls`, the tool calls of the latest assistant message (the last one observed). */
  repeatedCalls(calls: readonly ToolUsePart[], guard: LoopGuard | undefined): RepeatVerdict {
    const max = guard?.maxRepeatedCalls ?? DEFAULT_MAX_REPEATED_CALLS;
    const answers = new Map<string, ToolResult>();
    let corrected: { tool: string; count: number; message: string } | undefined;
    let run = this.beforeLatest;
    for (const call of calls) {
      const key = callKey(call);
      const count = key === run.key ? run.count + 1 : 1;
      run = { key, count };
      if (count > max) {
        return { kind: 'stop', tool: call.name, count, reason: `the agent called ${call.name} with the same arguments ${count} times in a row (after a correction at ${max})` };
      }
      if (count === max) {
        const text = renderPrompt('corrections', { repeatedCall: true, tool: call.name, count }).trim();
        answers.set(call.id, { content: [{ type: 'text', text }], isError: true });
        corrected = { tool: call.name, count, message: `${call.name} was called with the same arguments ${count} times in a row: answered with a correction instead of running it` };
      }
    }
    return corrected ? { kind: 'correct', answers, ...corrected } : { kind: 'ok' };
  }

  /**
   * Tool-result turns at the end of the conversation that brought no content the session had not
   * seen before (every result an exact repeat of an earlier one).
   */
  turnsWithoutProgress(): number {
    return this.idle;
  }
}

export function progressLimit(guard: LoopGuard | undefined): number {
  return guard?.maxTurnsWithoutProgress ?? DEFAULT_MAX_TURNS_WITHOUT_PROGRESS;
}

function callKey(call: ToolUsePart): string {
  return `${call.name}\u0000${call.malformedInput ?? canonicalJson(call.input)}`;
}

function resultDigest(part: ToolResultPart): string {
  return createHash('sha256').update(canonicalJson(part.content)).update(part.isError ? '1' : '0').digest('base64');
}
