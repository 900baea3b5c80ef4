// The last resort before a session fails for size: when even its last model turn does not fit the
// model's window, the request keeps no message verbatim and its head carries, after the compacted
// context, the model's latest tool calls with each large result replaced by the preview of its
// stored copy (runtime/results: the same store, handles and read tools as any large result). The
// head is stored with the cut like any other, so a resume sends it as it was.

import type { Part } from '../providers/types.js';
import { offloadResult, revealResultTools } from '../results/index.js';
import { renderPrompt } from '../../core/promptTemplates.js';
import type { SessionMessage } from '../kernel/session.js';
import type { ContextDeps } from './contextDeps.js';

/** Characters of a call's input shown beside its result. */
const INPUT_CHARS = 300;

/**
 * The "latest tool calls" section, with every result above `maxTokens` stored and previewed;
 * undefined when the conversation does not end with tool results (nothing to replace).
 */
export async function latestResultsSection(deps: ContextDeps, messages: readonly SessionMessage[], maxTokens: number): Promise<string | undefined> {
  const results = messages.at(-1);
  const reply = messages.at(-2);
  if (results?.kind !== 'tool_results' || reply?.role !== 'assistant') return undefined;
  const calls = new Map(reply.parts.flatMap((p) => (p.type === 'tool_use' ? [[p.id, p] as const] : [])));
  const scope = { store: deps.store, runId: deps.runId, sessionId: deps.sessionId, maxTokens };
  const shown: string[] = [];
  for (const part of results.parts) {
    if (part.type !== 'tool_result') continue;
    const call = calls.get(part.toolUseId);
    const result = await offloadResult(scope, { content: part.content, isError: part.isError });
    const text = result.content.map((c) => (c.type === 'text' ? c.text : `[image: ${c.mediaType}]`)).join('\n');
    const input = JSON.stringify(call?.input ?? {}) ?? '{}';
    shown.push(`### ${call?.name ?? 'tool'} ${input.length > INPUT_CHARS ? `${input.slice(0, INPUT_CHARS)}…` : input}${part.isError ? ' (an error)' : ''}\n${text}`);
  }
  if (shown.length === 0) return undefined;
  await revealResultTools(deps.toolbox, { ...scope, maxTokens: deps.resultMaxTokens });
  return renderPrompt('context', { latestResults: shown.join('\n\n') }).trim();
}

/** The compacted head with the latest calls appended inside it. */
export function withLatest(head: Part[], section: string): Part[] {
  const [first, ...rest] = head;
  if (first?.type !== 'text') return [{ type: 'text', text: section }, ...head];
  const text = first.text.replace(/<\/COMPACTED_CONTEXT>$/, `\n${section}\n</COMPACTED_CONTEXT>`);
  return [{ type: 'text', text }, ...rest];
}
