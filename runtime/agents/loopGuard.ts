// Runaway guards of an agent session, read from its conversation (so a resumed session judges the
// same way): the same tool called with identical arguments `maxRepeatedCalls` times in a row is
// answered with a correction instead of being run, and once more stops the session; a session whose
// tool results bring nothing new for `maxTurnsWithoutProgress` turns in a row is stopped too.

import { createHash } from 'node:crypto';
import type { LoopGuard } from '../../config/graph.js';
import { canonicalJson } from '../canonicalJson.js';
import { renderPrompt } from '../promptTemplates.js';
import type { ToolResultPart, ToolUsePart } from '../providers/types.js';
import type { ToolResult } from '../tools/types.js';
import type { SessionMessage } from './sessionTypes.js';

export const DEFAULT_MAX_REPEATED_CALLS = 3;
export const DEFAULT_MAX_TURNS_WITHOUT_PROGRESS = 8;

export type RepeatVerdict =
  | { kind: 'ok' }
  /** These calls are answered with the correction, not run. */
  | { kind: 'correct'; answers: Map<string, ToolResult>; tool: string; count: number; message: string }
  | { kind: 'stop'; tool: string; count: number; reason: string };

/** Judges the calls of the conversation's last message (an assistant turn with tool calls). */
export function checkRepeatedCalls(messages: readonly SessionMessage[], guard: LoopGuard | undefined): RepeatVerdict {
  const max = guard?.maxRepeatedCalls ?? DEFAULT_MAX_REPEATED_CALLS;
  const sequence = messages.flatMap((m) => (m.role === 'assistant' ? m.parts.filter((p): p is ToolUsePart => p.type === 'tool_use') : []));
  const last = messages[messages.length - 1];
  const pending = last?.role === 'assistant' ? last.parts.filter((p): p is ToolUsePart => p.type === 'tool_use').length : 0;
  const answers = new Map<string, ToolResult>();
  let corrected: { tool: string; count: number; message: string } | undefined;
  for (let i = sequence.length - pending; i < sequence.length; i++) {
    const call = sequence[i]!;
    const key = callKey(call);
    let count = 1;
    for (let j = i - 1; j >= 0 && callKey(sequence[j]!) === key; j--) count += 1;
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
export function turnsWithoutProgress(messages: readonly SessionMessage[]): number {
  const seen = new Set<string>();
  let idle = 0;
  for (const m of messages) {
    if (m.role !== 'user' || m.kind !== 'tool_results') continue;
    let fresh = false;
    for (const part of m.parts) {
      if (part.type !== 'tool_result') continue;
      const digest = resultDigest(part);
      if (!seen.has(digest)) {
        seen.add(digest);
        fresh = true;
      }
    }
    idle = fresh ? 0 : idle + 1;
  }
  return idle;
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
