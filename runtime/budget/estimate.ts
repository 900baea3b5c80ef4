// The upper bound of one model call's cost, reserved before the call is sent. There is no exact
// tokenizer here, so the input is bounded by the request's UTF-8 bytes: every tokenizer the
// providers use spends at least one byte of text per token (JSON escaping and base64 images only
// add bytes), plus a fixed allowance per message and per request for the wire format's own tokens.
// The output is bounded by the call's own limit: max_tokens, plus the thinking budget Anthropic adds
// on top of it. Input is priced at the dearest input rate (a cache write costs more than input).

import type { Pricing } from '../../config/graph.js';
import type { SessionModel } from '../kernel/session.js';
import { THINKING_BUDGETS } from '../providers/anthropicRequest.js';
import type { ModelRequest } from '../providers/types.js';

/** Tokens a provider may add around each message and around the whole request (roles, separators). */
const PER_MESSAGE_TOKENS = 16;
const PER_REQUEST_TOKENS = 512;

export interface Spend {
  tokens: number;
  dollars: number;
}

/**
 * JSON bytes of a message's parts or a tool definition, measured once per object: a stored
 * message's parts are never changed in place (a changed message is a new array), so a long
 * conversation costs only its new messages per call.
 */
const measured = new WeakMap<object, number>();

function jsonBytes(value: object): number {
  let n = measured.get(value);
  if (n === undefined) {
    n = Buffer.byteLength(JSON.stringify(value));
    measured.set(value, n);
  }
  return n;
}

/**
 * Records the JSON bytes of `value` as known without serialising it: the stored size of parts read
 * back from the store (exactly their JSON text), or of a message whose parts are not read yet.
 */
export function noteJsonBytes(value: object, bytes: number): void {
  measured.set(value, bytes);
}

/** The upper bound of some messages' input tokens (their share of a request). */
export function messagesUpperBound(messages: readonly { parts: readonly object[] }[]): number {
  let tokens = 0;
  for (const m of messages) tokens += jsonBytes(m.parts) + PER_MESSAGE_TOKENS;
  return tokens;
}

/** The upper bound of a request's input tokens: system prompt, messages and tool definitions. */
export function inputUpperBound(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): number {
  return Buffer.byteLength(request.system) + PER_REQUEST_TOKENS + messagesUpperBound(request.messages) + toolsUpperBound(request.tools);
}

/** The upper bound of the tool definitions' input tokens. */
export function toolsUpperBound(tools: readonly object[]): number {
  let tokens = 0;
  for (const tool of tools) tokens += jsonBytes(tool);
  return tokens;
}

export function callUpperBound(request: ModelRequest, model: Pick<SessionModel, 'pricing'>): Spend {
  const inputTokens = inputUpperBound(request);
  const thinking = request.reasoning && request.reasoningForm !== 'adaptive' ? THINKING_BUDGETS[request.reasoning] : 0;
  // On OpenAI the reasoning tokens count within max_tokens: adding them there only makes the bound looser.
  const outputTokens = request.maxOutputTokens + thinking;
  return { tokens: inputTokens + outputTokens, dollars: priceOf(inputTokens, outputTokens, model.pricing) };
}

function priceOf(inputTokens: number, outputTokens: number, pricing: Pricing | undefined): number {
  if (!pricing) return 0;
  const inputRate = Math.max(pricing.input, pricing.cacheWrite ?? pricing.input * 1.25, pricing.cacheRead ?? 0);
  return (inputRate * inputTokens + pricing.output * outputTokens) / 1_000_000;
}
