// Resolves a scripted FakeReply into everything a wire encoder needs: ids, the serialized tool
// arguments, the stop reason, usage (estimated from sizes when the script gives none) and the
// text pieces a stream is cut into. Shared by the Anthropic and OpenAI encoders.

import type { StopReason, Usage } from '../../runtime/providers/types.js';
import type { FakeApi, FakeReply, FakeRequest } from './fakeTypes.js';

export interface PlannedTurn {
  id: string;
  model: string;
  thinking: { text: string; signature: string; redactedData?: string }[];
  text: string;
  toolCalls: { id: string; name: string; args: string }[];
  stopReason: Exclude<StopReason, 'other'>;
  rawStopReason?: string;
  usage: Usage;
  chunkSize: number;
}

export function planTurn(reply: FakeReply, request: FakeRequest): PlannedTurn {
  const n = request.n;
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `${idPrefix(request.api)}_${n}_${i}`,
    name: call.name,
    args: call.rawArguments ?? JSON.stringify(call.input ?? {}),
  }));
  const thinking = (reply.thinking ?? []).map((block, i) => ({
    text: block.text ?? '',
    signature: block.signature ?? `sig-${n}-${i}`,
    ...(block.redactedData !== undefined ? { redactedData: block.redactedData } : {}),
  }));
  const text = reply.text ?? '';
  const outputChars = text.length + toolCalls.reduce((sum, c) => sum + c.args.length + c.name.length, 0) +
    thinking.reduce((sum, t) => sum + t.text.length, 0);
  const usage: Usage = {
    inputTokens: reply.usage?.inputTokens ?? Math.ceil(JSON.stringify(request.body).length / 4),
    outputTokens: reply.usage?.outputTokens ?? Math.max(1, Math.ceil(outputChars / 4)),
    cacheReadTokens: reply.usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: reply.usage?.cacheWriteTokens ?? 0,
  };
  // Gemini names the model in the path, not the body.
  const requestedModel = typeof request.body['model'] === 'string' ? request.body['model'] : request.canonical.model || 'fake-model';
  return {
    id: `${request.api === 'anthropic' ? 'msg' : 'chatcmpl'}_fake_${n}`,
    model: reply.model ?? requestedModel,
    thinking,
    text,
    toolCalls,
    stopReason: reply.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn'),
    ...(reply.rawStopReason !== undefined ? { rawStopReason: reply.rawStopReason } : {}),
    usage,
    chunkSize: Math.max(1, reply.chunkSize ?? 8),
  };
}

export function chunk(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** The error `type` each API puts in its body for a status. */
export function errorTypeFor(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

function idPrefix(api: FakeApi): string {
  return api === 'anthropic' ? 'toolu' : 'call';
}
