// Folds Gemini `GenerateContentResponse`s — the chunks of a `streamGenerateContent` stream, or the
// one answer of `generateContent` — into a canonical ModelResponse. Text split over chunks is joined
// back into the part it was; a thought signature stays on the part it came with, including the one
// a stream may send last on an empty text part; each `functionCall` part becomes a tool call with
// its own signature (of parallel calls, only the first has one). Thought parts become thinking
// parts. Usage comes from `usageMetadata`, where prompt tokens include cached ones.

import { randomUUID } from 'node:crypto';
import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part as GeminiPart } from '@google/genai';
import { LOCAL_CALL_ID_PREFIX } from './geminiRequest.js';
import { AttemptFailed } from './retry.js';
import type { ModelResponse, Part, StopReason, Usage } from './types.js';

const FINISH_REASONS: Readonly<Record<string, StopReason>> = {
  STOP: 'end_turn',
  MAX_TOKENS: 'max_tokens',
  SAFETY: 'refusal',
  RECITATION: 'refusal',
  BLOCKLIST: 'refusal',
  PROHIBITED_CONTENT: 'refusal',
  SPII: 'refusal',
  IMAGE_SAFETY: 'refusal',
};

export class GeminiResponseAccumulator {
  private readonly parts: Part[] = [];
  private finishReason: string | undefined;
  private blocked = false;
  private model = '';
  private usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  constructor(
    private readonly onText: (text: string) => void,
    /** Makes ids for calls the server sent without one; tests pin it. */
    private readonly newCallId: () => string = () => `${LOCAL_CALL_ID_PREFIX}${randomUUID().replaceAll('-', '').slice(0, 20)}`,
  ) {}

  apply(chunk: GenerateContentResponse): void {
    if (chunk.modelVersion) this.model = chunk.modelVersion;
    if (chunk.usageMetadata) this.usage = normalizeUsage(chunk.usageMetadata);
    if (chunk.promptFeedback?.blockReason) this.blocked = true;
    // Only one candidate is ever asked for.
    const candidate = chunk.candidates?.[0];
    if (!candidate) return;
    for (const part of candidate.content?.parts ?? []) this.add(part);
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
  }

  private add(part: GeminiPart): void {
    const signature = part.thoughtSignature ?? undefined;
    if (part.functionCall) {
      const call = part.functionCall;
      const id = call.id ? call.id : this.newCallId();
      this.parts.push({ type: 'tool_use', id, name: call.name ?? '', input: call.args ?? {}, ...(signature !== undefined ? { thoughtSignature: signature } : {}) });
      return;
    }
    if (typeof part.text !== 'string') {
      // A part of another kind (code execution, file data…) is not asked for; its signature is kept.
      if (signature !== undefined) this.parts.push({ type: 'text', text: '', thoughtSignature: signature });
      return;
    }
    const kind = part.thought === true ? 'thinking' : 'text';
    const last = this.parts.at(-1);
    // A part streamed over several chunks arrives as pieces of one kind, the signature (if any) on
    // the last piece: pieces join until a signed one closes the part.
    if ((last?.type === 'text' || last?.type === 'thinking') && last.type === kind && last.thoughtSignature === undefined) {
      last.text += part.text;
      if (signature !== undefined) last.thoughtSignature = signature;
    } else if (part.text !== '' || signature !== undefined) {
      this.parts.push({ type: kind, text: part.text, ...(signature !== undefined ? { thoughtSignature: signature } : {}) });
    }
    if (kind === 'text' && part.text !== '') this.onText(part.text);
  }

  /** The response; AttemptFailed when the stream ended before a finish reason (a dropped stream). */
  finish(): ModelResponse {
    const hasCalls = this.parts.some((p) => p.type === 'tool_use');
    let stopReason: StopReason;
    if (this.finishReason === undefined) {
      if (!this.blocked) throw new AttemptFailed({ kind: 'stream', retryable: true, reason: 'stream ended without a finishReason' });
      stopReason = 'refusal';
    } else {
      stopReason = FINISH_REASONS[this.finishReason] ?? 'other';
      if (hasCalls && stopReason === 'end_turn') stopReason = 'tool_use';
    }
    return { message: { role: 'assistant', parts: this.parts }, stopReason, usage: this.usage, model: this.model };
  }
}

/** Canonical input excludes cached tokens; thoughts are billed as output. */
export function normalizeUsage(usage: GenerateContentResponseUsageMetadata): Usage {
  const cached = usage.cachedContentTokenCount ?? 0;
  const prompt = (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0);
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}
