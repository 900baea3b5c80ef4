// Folds the raw server-sent events of one Anthropic Messages stream into a canonical ModelResponse:
// text, thinking (text + signature, or redacted data, verbatim), tool use with its JSON input
// assembled from `input_json_delta`s, the stop reason and usage including cache reads and writes.

import type Anthropic from '@anthropic-ai/sdk';
import { AttemptFailed } from './retry.js';
import type { ModelResponse, Part, StopReason, Usage } from './types.js';
import { boundToolInput, parseToolInput } from './toolInput.js';

type BlockState =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string; startInput: unknown }
  | { type: 'ignored' };

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  end_turn: 'end_turn',
  stop_sequence: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  // The output was cut short for lack of context: a truncation like max_tokens.
  model_context_window_exceeded: 'max_tokens',
  refusal: 'refusal',
};

export class AnthropicStreamAccumulator {
  private readonly blocks = new Map<number, BlockState>();
  private model = '';
  private stopReason: string | null = null;
  private stopped = false;
  private started = false;
  private usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  constructor(private readonly onText: (text: string) => void) {}

  apply(event: Anthropic.RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.started = true;
        this.model = event.message.model;
        this.mergeUsage(event.message.usage);
        return;
      case 'content_block_start': {
        const block = startBlock(event.content_block);
        this.blocks.set(event.index, block);
        if (block.type === 'text' && block.text !== '') this.onText(block.text);
        return;
      }
      case 'content_block_delta':
        this.applyDelta(event.index, event.delta);
        return;
      case 'content_block_stop':
        return;
      case 'message_delta':
        this.stopReason = event.delta.stop_reason;
        this.mergeUsage(event.usage);
        return;
      case 'message_stop':
        this.stopped = true;
        return;
    }
  }

  /** The response, or AttemptFailed when the stream ended before `message_stop` (a dropped stream). */
  finish(): ModelResponse {
    if (!this.started || !this.stopped) {
      throw new AttemptFailed({ kind: 'stream', retryable: true, reason: 'stream ended before message_stop' });
    }
    const indexes = [...this.blocks.keys()].sort((a, b) => a - b);
    const parts = indexes.flatMap((index) => toParts(this.blocks.get(index)));
    return {
      message: { role: 'assistant', parts },
      stopReason: (this.stopReason !== null ? STOP_REASONS[this.stopReason] : undefined) ?? 'other',
      usage: this.usage,
      model: this.model,
    };
  }

  private applyDelta(index: number, delta: Anthropic.RawContentBlockDeltaEvent['delta']): void {
    const block = this.blocks.get(index);
    if (!block) return;
    if (delta.type === 'text_delta' && block.type === 'text') {
      block.text += delta.text;
      this.onText(delta.text);
    } else if (delta.type === 'thinking_delta' && block.type === 'thinking') {
      block.text += delta.thinking;
    } else if (delta.type === 'signature_delta' && block.type === 'thinking') {
      block.signature += delta.signature;
    } else if (delta.type === 'input_json_delta' && block.type === 'tool_use') {
      block.json += delta.partial_json;
    }
  }

  /** message_start carries the input side; message_delta the cumulative output (and may repeat input). */
  private mergeUsage(usage: object): void {
    const pick = (key: string, current: number): number => {
      const value = (usage as Record<string, unknown>)[key];
      return typeof value === 'number' ? value : current;
    };
    this.usage = {
      inputTokens: pick('input_tokens', this.usage.inputTokens),
      outputTokens: pick('output_tokens', this.usage.outputTokens),
      cacheReadTokens: pick('cache_read_input_tokens', this.usage.cacheReadTokens),
      cacheWriteTokens: pick('cache_creation_input_tokens', this.usage.cacheWriteTokens),
    };
  }
}

function startBlock(block: Anthropic.RawContentBlockStartEvent['content_block']): BlockState {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', text: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, json: '', startInput: block.input };
    default:
      // Server tools and other block kinds are not part of the canonical conversation.
      return { type: 'ignored' };
  }
}

function toParts(block: BlockState | undefined): Part[] {
  if (!block) return [];
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'thinking':
      return [{ type: 'thinking', text: block.text, signature: block.signature }];
    case 'redacted_thinking':
      return [{ type: 'thinking', text: '', redactedData: block.data }];
    case 'tool_use': {
      if (block.json === '') return [{ type: 'tool_use', id: block.id, name: block.name, ...boundToolInput(block.startInput ?? {}) }];
      return [{ type: 'tool_use', id: block.id, name: block.name, ...parseToolInput(block.json) }];
    }
    case 'ignored':
      return [];
  }
}
