// Folds the chunks of one OpenAI Chat Completions stream into a canonical ModelResponse: text,
// tool calls assembled by index from argument deltas (malformed JSON kept raw, never thrown),
// reasoning text from compatible servers, the finish reason and usage with cached tokens split out.

import type OpenAI from 'openai';
import { AttemptFailed } from './retry.js';
import { parseToolInput } from './toolInput.js';
import type { ModelResponse, Part, StopReason, Usage } from './types.js';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

interface ToolCallState {
  id: string;
  name: string;
  args: string;
}

const FINISH_REASONS: Readonly<Record<string, StopReason>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

export class OpenAIStreamAccumulator {
  private text = '';
  private reasoning = '';
  private readonly toolCalls = new Map<number, ToolCallState>();
  private finishReason: string | null = null;
  private model = '';
  private usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  constructor(private readonly onText: (text: string) => void) {}

  apply(chunk: Chunk): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = normalizeUsage(chunk.usage);
    // Only the first choice is requested (n is never set).
    const choice = chunk.choices?.find((c) => c.index === 0);
    if (!choice) return;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.text += delta.content;
      this.onText(delta.content);
    }
    if (typeof delta.refusal === 'string') this.text += delta.refusal;
    this.reasoning += reasoningDelta(delta);
    for (const call of delta.tool_calls ?? []) {
      const state = this.toolCalls.get(call.index) ?? { id: '', name: '', args: '' };
      if (call.id) state.id = call.id;
      if (call.function?.name) state.name = call.function.name;
      if (call.function?.arguments) state.args += call.function.arguments;
      this.toolCalls.set(call.index, state);
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  /** The response, or AttemptFailed when the stream ended without a finish reason (a dropped stream). */
  finish(): ModelResponse {
    if (this.finishReason === null) {
      throw new AttemptFailed({ kind: 'stream', retryable: true, reason: 'stream ended without a finish_reason' });
    }
    const parts: Part[] = [];
    if (this.reasoning !== '') parts.push({ type: 'thinking', text: this.reasoning });
    if (this.text !== '') parts.push({ type: 'text', text: this.text });
    const indexes = [...this.toolCalls.keys()].sort((a, b) => a - b);
    indexes.forEach((index, position) => {
      const call = this.toolCalls.get(index);
      if (!call) return;
      // Some compatible servers omit ids; a stable one keeps tool results pairable.
      const id = call.id !== '' ? call.id : `call_${position}`;
      parts.push({ type: 'tool_use', id, name: call.name, ...parseToolInput(call.args) });
    });
    let stopReason = FINISH_REASONS[this.finishReason] ?? 'other';
    // Some compatible servers answer "stop" even when the turn ends in tool calls.
    if (stopReason === 'end_turn' && indexes.length > 0) stopReason = 'tool_use';
    return { message: { role: 'assistant', parts }, stopReason, usage: this.usage, model: this.model };
  }
}

/** `prompt_tokens` includes cached tokens; canonical input tokens do not. */
export function normalizeUsage(usage: OpenAI.CompletionUsage): Usage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

/** Compatible servers (vLLM, DeepSeek, Ollama, OpenRouter) stream reasoning under non-standard names. */
function reasoningDelta(delta: object): string {
  const record = delta as Record<string, unknown>;
  const value = record['reasoning_content'] ?? record['reasoning'];
  return typeof value === 'string' ? value : '';
}
