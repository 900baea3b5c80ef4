// How large a tool result is for the model's context, and how much room its preview and a page read
// back from it may take. Tokens are estimated from UTF-8 bytes (bytes / 3, rounded up): real
// tokenizers average 3.5–4.5 bytes per token on prose, code and JSON, so the estimate errs high and
// a result under the limit really is. An image counts as 1,600 tokens, the most a provider charges
// for one after it downsizes it.

import type { ToolResultContent } from '../../core/messages.js';

export const BYTES_PER_TOKEN = 3;
export const IMAGE_TOKENS = 1_600;

export function estimateTokens(content: readonly ToolResultContent[]): number {
  let tokens = 0;
  for (const part of content) tokens += part.type === 'text' ? Math.ceil(Buffer.byteLength(part.text, 'utf8') / BYTES_PER_TOKEN) : IMAGE_TOKENS;
  return tokens;
}

/** Bytes of shape or head-and-tail a preview shows: 1,200 at the default limit (the whole preview, framing and JSON escaping included, stays under 2 KB). */
export function previewBudget(maxTokens: number): number {
  return Math.min(8_000, Math.max(512, Math.floor((maxTokens * BYTES_PER_TOKEN) / 40)));
}

/** Bytes one answer of result_read or result_search may take: the same limit as any tool result. */
export function readBudget(maxTokens: number): number {
  return maxTokens * BYTES_PER_TOKEN;
}

/** The first `max` bytes of `text`, cut at a character boundary. */
export function headBytes(text: string, max: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return text;
  return buf.subarray(0, max).toString('utf8').replace(/\uFFFD+$/, '');
}

/** The last `max` bytes of `text`, cut at a character boundary. */
export function tailBytes(text: string, max: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return text;
  return buf.subarray(buf.length - max).toString('utf8').replace(/^\uFFFD+/, '');
}
