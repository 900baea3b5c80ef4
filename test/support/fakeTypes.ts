// Types of the fake model server: what a test scripts (FakeReply) and what the server records of
// each request it received (FakeRequest, with a canonical view in the runtime's own shapes).

import type { Message, StopReason, ToolDefinition, Usage } from '../../runtime/providers/types.js';

export type FakeApi = 'anthropic' | 'openai' | 'gemini' | 'responses';

export interface FakeToolCall {
  name: string;
  /** Serialized as the call's JSON arguments. */
  input?: unknown;
  /** Sent verbatim instead of `input` (e.g. malformed JSON). */
  rawArguments?: string;
  /** Default: `toolu_<request>_<i>` (Anthropic) or `call_<request>_<i>` (OpenAI). */
  id?: string;
}

export interface FakeThinking {
  text?: string;
  /** Anthropic only; default `sig-<request>-<i>`. */
  signature?: string;
  /** Anthropic `redacted_thinking` data (then `text` and `signature` are ignored). */
  redactedData?: string;
}

/**
 * One scripted reply. Read as: `drop` if set, else an error `status` if set, else a successful
 * turn made of thinking, text and tool calls (in that order, as the real APIs send them).
 */
export interface FakeReply {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Anthropic thinking blocks; on OpenAI, their text is streamed as `reasoning_content`. */
  thinking?: FakeThinking[];
  /** Default: `tool_use` when there are tool calls, else `end_turn`. Mapped to the API's own name. */
  stopReason?: Exclude<StopReason, 'other'>;
  /** A wire stop/finish reason sent verbatim (wins over `stopReason`). */
  rawStopReason?: string;
  /** Canonical usage; unset fields are estimated from the request and reply sizes (cache: 0). */
  usage?: Partial<Usage>;
  /** The model id reported; default the requested one. */
  model?: string;
  /** Wait before answering (simulated latency). */
  delayMs?: number;
  /** Wait between streamed events. */
  chunkDelayMs?: number;
  /** Streamed text is cut into pieces of this many characters (default 8). */
  chunkSize?: number;
  /** HTTP error status (e.g. 429, 500, 529, 401), answered with the API's error body. */
  status?: number;
  /** `retry-after` header: seconds, or an HTTP date string. */
  retryAfter?: number | string;
  /** `retry-after-ms` header. */
  retryAfterMs?: number;
  /** The error body's type (default from the status, e.g. 529 → overloaded_error). */
  errorType?: string;
  /** The error body's message. */
  errorMessage?: string;
  /**
   * Destroy the socket: `true` after half of the streamed events (so partial text has gone out),
   * `'before-response'` before any byte of the response.
   */
  drop?: true | 'before-response';
  /** With `drop: true`: destroy after exactly this many events. */
  dropAfterEvents?: number;
  /** Stream part of the reply, then an in-stream error event of this type (e.g. `overloaded_error`). */
  streamError?: { type: string; message?: string; afterEvents?: number };
  /** Stream this many events, then one whose data is not JSON (a proxy or server that garbled the stream), and end the response. */
  garbleAfterEvents?: number;
}

/** The request in the runtime's canonical shapes (lossy where the wire format is, see the wire modules). */
export interface FakeCanonicalRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
}

export interface FakeRequest {
  api: FakeApi;
  /** 1-based arrival order over the server's lifetime. */
  n: number;
  path: string;
  stream: boolean;
  /** The parsed JSON body, as sent. */
  body: Record<string, unknown>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  canonical: FakeCanonicalRequest;
}
