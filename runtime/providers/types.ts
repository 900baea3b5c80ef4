// The one interface every provider adapter implements (ModelClient), its requests, responses and
// errors. The canonical conversation parts are defined in core/messages.ts (the store speaks them
// too) and re-exported here for the adapters; adapters translate them to and from each wire API.

export type {
  JsonSchema,
  TextPart,
  ThinkingPart,
  ToolUsePart,
  ToolResultContent,
  ToolResultPart,
  ImagePart,
  Part,
  Message,
  Usage,
  StopReason,
} from '../../core/messages.js';
import type { JsonSchema, Message, Part, StopReason, Usage } from '../../core/messages.js';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /**
   * Ask the provider to enforce `inputSchema` while sampling (OpenAI `strict`, Anthropic strict tool
   * use). Set only on tools whose schema is closed (`additionalProperties: false` throughout) and
   * whose executor reads `null` for an optional property as absent, since OpenAI's strict mode turns
   * optional properties into required nullable ones. The runtime still checks every input.
   */
  strict?: boolean;
}

/** Who is asking: used by the replay provider to find the cassette entry, and by logs. */
export interface RequestTrace {
  task: string;
  /** `commander`, `worker`, or a declared agent's name. */
  agent: string;
  /** 1-based model turn within the session. */
  turn: number;
}

export interface ModelRequest {
  /** The wire model id. */
  model: string;
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxOutputTokens: number;
  reasoning?: 'low' | 'medium' | 'high';
  /**
   * Anthropic: how reasoning is requested. `budget` (default) is extended thinking with a token budget,
   * the only form of Claude 4.5 and earlier; `adaptive` is adaptive thinking with an effort level,
   * required by Claude 4.7 and later.
   */
  reasoningForm?: 'budget' | 'adaptive';
  trace: RequestTrace;
}

export interface ModelResponse {
  message: { role: 'assistant'; parts: Part[] };
  stopReason: StopReason;
  usage: Usage;
  /** The model id the server reported. */
  model: string;
  /** Played back from a cassette: no model was called, so the turn costs nothing. */
  replayed?: true;
}

export interface RetryNotice {
  /** 1-based number of the attempt that just failed; the next one is `attempt + 1`. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** One line, e.g. `429 rate limited` or `connection dropped`. */
  reason: string;
  /** HTTP status, when the failure had one. */
  status?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Streamed text, for live progress. Never needed for correctness. */
  onTextDelta?: (text: string) => void;
  onRetry?: (notice: RetryNotice) => void;
}

export interface ModelClient {
  readonly provider: 'anthropic' | 'openai' | 'gemini' | 'replay';
  complete(request: ModelRequest, options?: CallOptions): Promise<ModelResponse>;
}

/**
 * What kind of failure ended a model call. `http`: the server answered with an error status;
 * `network`: connection refused/reset/dropped; `timeout`: the per-request timeout expired;
 * `stream`: the response stream broke off or reported an error; `aborted`: the caller's signal;
 * `replay`: a cassette miss or divergence; `protocol`: a response the client could not interpret.
 */
export type ModelCallErrorKind = 'http' | 'network' | 'timeout' | 'stream' | 'aborted' | 'replay' | 'protocol';

export interface ModelCallErrorInfo {
  kind?: ModelCallErrorKind;
  /** Attempts made before giving up (1 when not retryable). */
  attempts?: number;
}

/** A model call that failed for good (after retries, or not retryable). */
export class ModelCallError extends Error {
  readonly kind?: ModelCallErrorKind;
  readonly attempts?: number;

  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
    info: ModelCallErrorInfo = {},
  ) {
    super(message);
    this.name = 'ModelCallError';
    this.kind = info.kind;
    this.attempts = info.attempts;
  }
}
