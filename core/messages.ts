// The conversation's canonical shapes: message parts, usage and stop reasons. The bottom layer: the
// runtime's providers translate wire formats to and from these, the store persists them, cassettes
// hold them. Imports nothing.

export type JsonSchema = Record<string, unknown>;

export interface TextPart {
  type: 'text';
  text: string;
  /** Gemini: the opaque `thoughtSignature` that came on this part, sent back on it unchanged. */
  thoughtSignature?: string;
  /**
   * OpenAI Responses API: the id of the output message item the text came in. Sent back with it,
   * so the API can pair the item with the reasoning item before it (see ThinkingPart.reasoningItem).
   */
  itemId?: string;
}

/** Kept verbatim (signature, redacted data) so it can be sent back unchanged on the next turn. */
export interface ThinkingPart {
  type: 'thinking';
  text: string;
  signature?: string;
  /** Anthropic `redacted_thinking` payload (then `text` is ""). */
  redactedData?: string;
  /** Gemini: the `thoughtSignature` of a thought part (its text is never sent back, the signature is). */
  thoughtSignature?: string;
  /**
   * OpenAI Responses API: the `reasoning` output item exactly as the server returned it (its id,
   * summary and `encrypted_content`). Opaque: sent back unchanged, in its place, on every later
   * request of the session, which is what keeps a reasoning model's reasoning across tool calls
   * without server-side state. `text` holds its summary for display.
   */
  reasoningItem?: Record<string, unknown>;
}

export interface ToolUsePart {
  type: 'tool_use';
  id: string;
  /** The API name the model used (e.g. `builtins_http_get`). */
  name: string;
  input: unknown;
  /** Set when the model produced arguments that are not valid JSON; `input` is then {}. */
  malformedInput?: string;
  /**
   * Gemini: the `thoughtSignature` of this `functionCall` part, sent back on it unchanged in every
   * later request (Gemini 3 refuses a function-call turn without it; of parallel calls only the
   * first carries one).
   */
  thoughtSignature?: string;
  /** OpenAI Responses API: the id of the `function_call` item (`fc_…`; `id` is its call_id), as for TextPart.itemId. */
  itemId?: string;
}

export type ToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: string; data: string };

export interface ToolResultPart {
  type: 'tool_result';
  toolUseId: string;
  content: ToolResultContent[];
  isError: boolean;
}

export interface ImagePart {
  type: 'image';
  mediaType: string;
  /** base64 */
  data: string;
}

export type Part = TextPart | ThinkingPart | ToolUsePart | ToolResultPart | ImagePart;

/** A message's answer text: its text parts, one per line, trimmed (what an agent's reply says). */
export function textOfParts(parts: readonly Part[]): string {
  return parts
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('\n')
    .trim();
}

export interface Message {
  role: 'user' | 'assistant';
  parts: Part[];
}

export interface Usage {
  /** Uncached input tokens. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Output tokens spent on reasoning, when the provider reports them (already part of `outputTokens`). */
  reasoningTokens?: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'other';
