// The Gemini API wire format for the fake server: the routes (`/v1beta/models/{model}:generateContent`
// and `:streamGenerateContent?alt=sse`), a request body read back into canonical shapes, a planned
// turn encoded as SSE chunks or one JSON answer, google.rpc.Status error bodies, and what the real
// API refuses: like Gemini 3, a function-call turn of the current turn whose first call lacks the
// thought signature handed out for it is a 400 INVALID_ARGUMENT, and so is a function-response turn
// with fewer or more responses than the calls it answers. Signatures are self-checking (they encode
// the call they were issued for), so the check needs no memory and survives a client restart.
// Like the Gemini Developer API, function calls carry no `id`.

import type { Message, Part, ToolDefinition } from '../../runtime/providers/types.js';
import type { FakeCanonicalRequest } from './fakeTypes.js';
import { chunk, type PlannedTurn } from './fakeTurnPlan.js';
import { asJson, list, str, type Json } from './wireJson.js';

/** What Google documents for function calls that did not come from Gemini. */
const PLACEHOLDERS = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);

const ROUTE = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** `'gemini'` for a Gemini route. */
export function geminiApi(path: string): 'gemini' | undefined {
  return ROUTE.test(path) ? 'gemini' : undefined;
}

export function geminiStreams(path: string): boolean {
  return ROUTE.exec(path)?.[2] === 'streamGenerateContent';
}

export function geminiModel(path: string): string {
  return ROUTE.exec(path)?.[1] ?? '';
}

/** The signature issued for a function call: its request number, name and arguments, encoded. */
export function fakeThoughtSignature(n: number, name: string, args: string): string {
  return Buffer.from(JSON.stringify({ fake: 'gemini-thought', n, name, args: JSON.parse(args) as unknown })).toString('base64');
}

function signatureFits(signature: unknown, call: Json): boolean {
  if (typeof signature !== 'string') return false;
  if (PLACEHOLDERS.has(signature)) return true;
  try {
    const decoded = asJson(JSON.parse(Buffer.from(signature, 'base64').toString('utf8')));
    return decoded['fake'] === 'gemini-thought' && decoded['name'] === call['name'] && JSON.stringify(decoded['args']) === JSON.stringify(call['args'] ?? {});
  } catch {
    return false;
  }
}

/** Why the real API would refuse this body (400 INVALID_ARGUMENT), or nothing. */
export function geminiRequestProblems(body: Json): string[] {
  const problems: string[] = [];
  const contents = list(body['contents']).map(asJson);
  // The current turn starts at the last user content holding something other than function responses.
  let start = 0;
  contents.forEach((content, i) => {
    const parts = list(content['parts']).map(asJson);
    if (content['role'] !== 'model' && parts.some((p) => p['functionResponse'] === undefined)) start = i;
  });
  contents.forEach((content, i) => {
    const parts = list(content['parts']).map(asJson);
    if (content['role'] === 'model') {
      const first = parts.find((p) => p['functionCall'] !== undefined);
      if (i > start && first && !signatureFits(first['thoughtSignature'], asJson(first['functionCall']))) {
        const name = str(asJson(first['functionCall'])['name']);
        problems.push(`Function call \`${name}\` in the \`${i + 1}.\` content block is missing a \`thought_signature\`.`);
      }
      const calls = parts.filter((p) => p['functionCall'] !== undefined).length;
      const next = contents[i + 1];
      const answers = next ? list(next['parts']).filter((p) => asJson(p)['functionResponse'] !== undefined).length : calls;
      if (calls > 0 && answers !== calls) {
        problems.push('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
      }
    }
  });
  return problems;
}

export function canonicalFromGemini(body: Json, path: string): FakeCanonicalRequest {
  const system = list(asJson(body['systemInstruction'])['parts'])
    .map((p) => str(asJson(p)['text']))
    .join('');
  const messages: Message[] = list(body['contents']).map((raw) => {
    const content = asJson(raw);
    const parts = list(content['parts']).flatMap((p) => canonicalPart(asJson(p)));
    return { role: content['role'] === 'model' ? 'assistant' : 'user', parts };
  });
  const declarations = list(body['tools']).flatMap((t) => list(asJson(t)['functionDeclarations']));
  return {
    model: geminiModel(path),
    system,
    messages,
    tools: declarations.map((raw): ToolDefinition => {
      const d = asJson(raw);
      return { name: str(d['name']), description: str(d['description']), inputSchema: asJson(d['parametersJsonSchema'] ?? d['parameters']) };
    }),
  };
}

function canonicalPart(part: Json): Part[] {
  const signature = typeof part['thoughtSignature'] === 'string' ? { thoughtSignature: part['thoughtSignature'] } : {};
  if (part['functionCall'] !== undefined) {
    const call = asJson(part['functionCall']);
    return [{ type: 'tool_use', id: str(call['id']), name: str(call['name']), input: call['args'] ?? {}, ...signature }];
  }
  if (part['functionResponse'] !== undefined) {
    const response = asJson(part['functionResponse']);
    const payload = asJson(response['response']);
    const isError = payload['error'] !== undefined;
    const value = isError ? payload['error'] : (payload['output'] ?? payload['result'] ?? payload);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return [{ type: 'tool_result', toolUseId: str(response['id']) || str(response['name']), content: [{ type: 'text', text }], isError }];
  }
  if (part['inlineData'] !== undefined) {
    const data = asJson(part['inlineData']);
    return [{ type: 'image', mediaType: str(data['mimeType']), data: str(data['data']) }];
  }
  if (typeof part['text'] === 'string') {
    return [part['thought'] === true ? { type: 'thinking', text: part['text'] } : { type: 'text', text: part['text'], ...signature }];
  }
  return [];
}

const FINISH_REASONS: Record<PlannedTurn['stopReason'], string> = {
  end_turn: 'STOP',
  tool_use: 'STOP',
  max_tokens: 'MAX_TOKENS',
  refusal: 'SAFETY',
};

function usageMetadata(turn: PlannedTurn): Json {
  const prompt = turn.usage.inputTokens + turn.usage.cacheReadTokens;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: turn.usage.outputTokens,
    totalTokenCount: prompt + turn.usage.outputTokens,
    ...(turn.usage.cacheReadTokens > 0 ? { cachedContentTokenCount: turn.usage.cacheReadTokens } : {}),
  };
}

function callParts(turn: PlannedTurn, n: number): Json[] {
  // Of parallel calls only the first carries the signature, as Gemini 3 sends them.
  return turn.toolCalls.map((call, i) => {
    const args = JSON.parse(call.args) as unknown;
    return { functionCall: { name: call.name, args }, ...(i === 0 ? { thoughtSignature: fakeThoughtSignature(n, call.name, call.args) } : {}) };
  });
}

/** The signature of a text-only answer: on its last part (not checked, only sent back). */
function textSignature(n: number): string {
  return Buffer.from(`fake-text-signature-${n}`).toString('base64');
}

function candidate(parts: Json[], finishReason?: string): Json {
  return { content: { role: 'model', parts }, index: 0, ...(finishReason !== undefined ? { finishReason } : {}) };
}

/** Every SSE frame of a streamed turn; the last carries the finish reason and usage. */
export function geminiStreamEvents(turn: PlannedTurn, n: number): string[] {
  const frames: string[] = [];
  const emit = (data: Json): void => void frames.push(`data: ${JSON.stringify({ ...data, modelVersion: turn.model, responseId: turn.id })}\r\n\r\n`);
  for (const block of turn.thinking) for (const piece of chunk(block.text, turn.chunkSize)) emit({ candidates: [candidate([{ text: piece, thought: true }])] });
  for (const piece of chunk(turn.text, turn.chunkSize)) emit({ candidates: [candidate([{ text: piece }])] });
  for (const part of callParts(turn, n)) emit({ candidates: [candidate([part])] });
  // A text-only answer's signature comes last, on an empty text part, with the finish reason.
  const closing = turn.toolCalls.length === 0 ? [{ text: '', thoughtSignature: textSignature(n) }] : [];
  emit({ candidates: [candidate(closing, finishReasonOf(turn))], usageMetadata: usageMetadata(turn) });
  return frames;
}

export function geminiResponse(turn: PlannedTurn, n: number): Json {
  const parts: Json[] = turn.thinking.map((t) => ({ text: t.text, thought: true }));
  if (turn.text !== '') parts.push({ text: turn.text, ...(turn.toolCalls.length === 0 ? { thoughtSignature: textSignature(n) } : {}) });
  parts.push(...callParts(turn, n));
  return { candidates: [candidate(parts, finishReasonOf(turn))], usageMetadata: usageMetadata(turn), modelVersion: turn.model, responseId: turn.id };
}

function finishReasonOf(turn: PlannedTurn): string {
  return turn.rawStopReason ?? FINISH_REASONS[turn.stopReason];
}

const STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** A google.rpc.Status body; a retry delay in seconds becomes a RetryInfo detail, as Gemini's 429s carry. */
export function geminiErrorBody(code: number, message: string, retryDelaySeconds?: number): Json {
  const details = retryDelaySeconds !== undefined ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryDelaySeconds}s` }] : undefined;
  return { error: { code, message, status: STATUSES[code] ?? (code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'), ...(details ? { details } : {}) } };
}

export function geminiStreamErrorEvent(code: number, message: string): string {
  return `data: ${JSON.stringify(geminiErrorBody(code, message))}\r\n\r\n`;
}
