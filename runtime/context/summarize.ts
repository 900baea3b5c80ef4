// `compaction { summarize = true }`: the session's own model summarizes the messages a compaction
// drops (since the previous cut, whose head it reads too). One plain call, no tools, through the
// session's gated client (reserved against the budgets before it is sent); the caller records it as
// a model turn, settling its reservation, so it is priced and counted like any other.

import type { ModelResponse, Part } from '../providers/types.js';
import type { GatedClient, GatedReply } from '../model/modelCall.js';
import { renderPrompt } from '../../core/promptTemplates.js';
import type { SessionModel } from '../kernel/session.js';

/** Characters of one tool input or result shown to the summarizer. */
const PART_CHARS = 2_000;
/** Characters of conversation sent to the summarizer at most (its newest part). */
const TOTAL_CHARS = 200_000;
const SUMMARY_WORDS = 300;
/** The summary's output limit (a compaction with a summary keeps room for it). */
export const SUMMARY_OUTPUT_TOKENS = 1_024;

export interface SummaryCall {
  client: GatedClient;
  model: SessionModel;
  signal: AbortSignal;
  trace: { task: string; agent: string; turn: number };
}

export async function summarize(call: SummaryCall, messages: readonly { role: 'user' | 'assistant'; parts: Part[] }[]): Promise<GatedReply> {
  let transcript = messages.map((m) => `[${m.role}]\n${m.parts.map(partText).join('\n')}`).join('\n\n');
  if (transcript.length > TOTAL_CHARS) transcript = `…${transcript.slice(-TOTAL_CHARS)}`;
  return call.client.call(
    {
      model: call.model.apiModel,
      system: renderPrompt('context', { summaryRequest: true, maxWords: SUMMARY_WORDS }).trim(),
      messages: [{ role: 'user', parts: [{ type: 'text', text: `<conversation>\n${transcript}\n</conversation>` }] }],
      tools: [],
      maxOutputTokens: Math.min(SUMMARY_OUTPUT_TOKENS, call.model.maxOutputTokens),
      trace: call.trace,
    },
    { signal: call.signal },
  );
}

export function summaryText(response: ModelResponse): string {
  return response.message.parts
    .filter((p): p is Extract<Part, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n')
    .trim();
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'thinking':
      return '';
    case 'image':
      return '(an image)';
    case 'tool_use':
      return `(called ${part.name} with ${clip(JSON.stringify(part.input) ?? '')})`;
    case 'tool_result':
      return `(result${part.isError ? ', an error' : ''}: ${clip(part.content.map((c) => (c.type === 'text' ? c.text : '(an image)')).join('\n'))})`;
  }
}

function clip(text: string): string {
  return text.length > PART_CHARS ? `${text.slice(0, PART_CHARS)}… (${text.length - PART_CHARS} more characters)` : text;
}
