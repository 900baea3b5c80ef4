// Folds the semantic events of one OpenAI Responses stream into a canonical ModelResponse. Text
// deltas feed live progress; the parts themselves come from each `response.output_item.done` (the
// complete item: a reasoning item's encrypted content is only final there), in output order:
// a reasoning item becomes a thinking part carrying the item verbatim, a message its text, a
// function call a tool_use. `response.completed` / `response.incomplete` end the turn with usage;
// `response.failed`, an `error` event or a stream that ends before either fail the attempt.

import type OpenAI from 'openai';
import { AttemptFailed } from './retry.js';
import { parseToolInput } from './toolInput.js';
import type { ModelResponse, Part, StopReason, Usage } from './types.js';

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;
type OutputItem = OpenAI.Responses.ResponseOutputItem;
type ApiResponse = OpenAI.Responses.Response;

/** Error codes of a failed response that a new attempt may get past. */
const RETRYABLE_CODES = new Set(['server_error', 'rate_limit_exceeded', 'vector_store_timeout']);

export class ResponsesStreamAccumulator {
  private readonly items = new Map<number, Part[]>();
  /** Argument text by item id, for a function_call whose done item arrives without arguments. */
  private readonly argDeltas = new Map<string, string>();
  private end: ApiResponse | undefined;
  private model = '';

  constructor(private readonly onText: (text: string) => void) {}

  apply(event: StreamEvent): void {
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
        this.model = event.response.model || this.model;
        return;
      case 'response.output_text.delta':
        if (event.delta !== '') this.onText(event.delta);
        return;
      case 'response.function_call_arguments.delta':
        this.argDeltas.set(event.item_id, (this.argDeltas.get(event.item_id) ?? '') + event.delta);
        return;
      case 'response.output_item.done':
        this.items.set(event.output_index, this.partsOf(event.item));
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.end = event.response;
        return;
      case 'response.failed': {
        const error = event.response.error;
        const code = error?.code ?? 'server_error';
        throw new AttemptFailed({ kind: 'stream', retryable: RETRYABLE_CODES.has(code), reason: `response failed (${code})${error?.message ? `: ${error.message}` : ''}` });
      }
      case 'error':
        throw new AttemptFailed({ kind: 'stream', retryable: true, reason: `stream error ${event.code ?? 'error'}: ${event.message}` });
      default:
        return;
    }
  }

  /** The response, or AttemptFailed when the stream ended before the response did (a dropped stream). */
  finish(): ModelResponse {
    const end = this.end;
    if (end === undefined) {
      throw new AttemptFailed({ kind: 'stream', retryable: true, reason: 'stream ended without response.completed' });
    }
    // A non-streamed response lists its items only at the end; a streamed one also there.
    if (this.items.size === 0) end.output.forEach((item, index) => this.items.set(index, this.partsOf(item)));
    const parts = [...this.items.entries()].sort(([a], [b]) => a - b).flatMap(([, p]) => p);
    return {
      message: { role: 'assistant', parts },
      stopReason: stopReasonOf(end, parts),
      usage: responsesUsage(end.usage),
      model: end.model || this.model,
    };
  }

  private partsOf(item: OutputItem): Part[] {
    switch (item.type) {
      case 'reasoning': {
        const text = [...item.summary, ...(item.content ?? [])].map((s) => s.text).join('\n\n');
        return [{ type: 'thinking', text, reasoningItem: { ...item } as unknown as Record<string, unknown> }];
      }
      case 'message': {
        const text = item.content.map((c) => (c.type === 'output_text' ? c.text : c.refusal)).join('');
        return text === '' ? [] : [{ type: 'text', text, itemId: item.id }];
      }
      case 'function_call': {
        const args = item.arguments !== '' ? item.arguments : (this.argDeltas.get(item.id ?? '') ?? '');
        return [{ type: 'tool_use', id: item.call_id, name: item.name, ...parseToolInput(args), ...(item.id ? { itemId: item.id } : {}) }];
      }
      default:
        // Built-in tools are never offered, so nothing else is expected; ignore rather than fail.
        return [];
    }
  }
}

function stopReasonOf(response: ApiResponse, parts: Part[]): StopReason {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'max_tokens';
    if (reason === 'content_filter') return 'refusal';
    return 'other';
  }
  return parts.some((p) => p.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

/** `input_tokens` includes cached tokens; canonical input tokens do not. */
export function responsesUsage(usage: OpenAI.Responses.ResponseUsage | undefined): Usage {
  const cached = usage?.input_tokens_details?.cached_tokens ?? 0;
  const written = usage?.input_tokens_details?.cache_write_tokens ?? 0;
  const reasoning = usage?.output_tokens_details?.reasoning_tokens;
  return {
    inputTokens: Math.max(0, (usage?.input_tokens ?? 0) - cached - written),
    outputTokens: usage?.output_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: written,
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
