// The conversation's canonical shapes: message parts, usage and stop reasons. The bottom layer: the
// runtime's providers translate wire formats to and from these, the store persists them, cassettes
// hold them. Imports nothing.

export type JsonSchema = Record<string, unknown>;

export interface TextPart {
  type: 'text';
  text: string;
}

/** Kept verbatim (signature, redacted data) so it can be sent back unchanged on the next turn. */
export interface ThinkingPart {
  type: 'thinking';
  text: string;
  signature?: string;
  /** Anthropic `redacted_thinking` payload (then `text` is ""). */
  redactedData?: string;
}

export interface ToolUsePart {
  type: 'tool_use';
  id: string;
  /** The API name the model used (e.g. `builtins_http_get`). */
  name: string;
  input: unknown;
  /** Set when the model produced arguments that are not valid JSON; `input` is then {}. */
  malformedInput?: string;
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
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'other';
