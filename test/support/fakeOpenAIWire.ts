// The OpenAI Chat Completions wire format for the fake server: reads a request body back into
// canonical shapes and encodes a planned turn as SSE chunks, a JSON completion or an error body.
// The canonical view is lossy where the wire is: a run of `tool` messages and the user message
// right after them become one user message; a tool error arrives as text (isError is false).

import type { Message, Part, ToolDefinition } from '../../runtime/providers/types.js';
import type { FakeCanonicalRequest } from './fakeTypes.js';
import { chunk, type PlannedTurn } from './fakeTurnPlan.js';
import { asJson, list, str, type Json } from './wireJson.js';

const FINISH_REASONS: Record<PlannedTurn['stopReason'], string> = {
  end_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
};

export function canonicalFromOpenAI(body: Json): FakeCanonicalRequest {
  const systems: string[] = [];
  const messages: Message[] = [];
  let pendingTools: Part[] = [];
  const flushTools = (): void => {
    if (pendingTools.length > 0) messages.push({ role: 'user', parts: pendingTools });
    pendingTools = [];
  };
  for (const m of list(body['messages'])) {
    const message = asJson(m);
    const role = message['role'];
    if (role === 'system' || role === 'developer') {
      systems.push(contentText(message['content']));
    } else if (role === 'tool') {
      pendingTools.push({
        type: 'tool_result',
        toolUseId: str(message['tool_call_id']),
        content: [{ type: 'text', text: contentText(message['content']) }],
        isError: false,
      });
    } else if (role === 'user') {
      const parts = [...pendingTools, ...userParts(message['content'])];
      pendingTools = [];
      messages.push({ role: 'user', parts });
    } else if (role === 'assistant') {
      flushTools();
      messages.push({ role: 'assistant', parts: assistantParts(message) });
    }
  }
  flushTools();
  return {
    model: str(body['model']),
    system: systems.join('\n\n'),
    messages,
    tools: list(body['tools']).map((t): ToolDefinition => {
      const fn = asJson(asJson(t)['function']);
      const definition: ToolDefinition = { name: str(fn['name']), description: str(fn['description']), inputSchema: asJson(fn['parameters']) };
      if (fn['strict'] === true) definition.strict = true;
      return definition;
    }),
  };
}

function userParts(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return list(content).flatMap((item): Part[] => {
    const part = asJson(item);
    if (part['type'] === 'text') return [{ type: 'text', text: str(part['text']) }];
    if (part['type'] === 'image_url') {
      const match = /^data:([^;]+);base64,(.*)$/s.exec(str(asJson(part['image_url'])['url']));
      return match ? [{ type: 'image', mediaType: match[1] ?? '', data: match[2] ?? '' }] : [];
    }
    return [];
  });
}

function assistantParts(message: Json): Part[] {
  const parts: Part[] = [];
  const text = contentText(message['content']);
  if (text !== '') parts.push({ type: 'text', text });
  for (const c of list(message['tool_calls'])) {
    const call = asJson(c);
    const fn = asJson(call['function']);
    const args = str(fn['arguments']);
    let input: unknown = {};
    let malformed: string | undefined;
    try {
      input = JSON.parse(args);
    } catch {
      malformed = args;
    }
    parts.push({ type: 'tool_use', id: str(call['id']), name: str(fn['name']), input, ...(malformed !== undefined ? { malformedInput: malformed } : {}) });
  }
  return parts;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((item) => str(asJson(item)['text']))
    .join('');
}

function wireUsage(turn: PlannedTurn): Json {
  const prompt = turn.usage.inputTokens + turn.usage.cacheReadTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: turn.usage.outputTokens,
    total_tokens: prompt + turn.usage.outputTokens,
    prompt_tokens_details: { cached_tokens: turn.usage.cacheReadTokens },
  };
}

function finishReasonOf(turn: PlannedTurn): string {
  return turn.rawStopReason ?? FINISH_REASONS[turn.stopReason];
}

/** Every SSE frame of a streamed turn, `data: [DONE]` included. */
export function openaiStreamEvents(turn: PlannedTurn, includeUsage: boolean): string[] {
  const created = Math.floor(Date.now() / 1000);
  const frames: string[] = [];
  const emit = (choices: Json[], extra: Json = {}): void => {
    const data = { id: turn.id, object: 'chat.completion.chunk', created, model: turn.model, choices, ...extra };
    frames.push(`data: ${JSON.stringify(data)}\n\n`);
  };
  const delta = (d: Json, finish: string | null = null): Json[] => [{ index: 0, delta: d, logprobs: null, finish_reason: finish }];
  emit(delta({ role: 'assistant', content: '' }));
  for (const block of turn.thinking) {
    for (const piece of chunk(block.text, turn.chunkSize)) emit(delta({ reasoning_content: piece }));
  }
  for (const piece of chunk(turn.text, turn.chunkSize)) emit(delta({ content: piece }));
  turn.toolCalls.forEach((call, index) => {
    emit(delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of chunk(call.args, turn.chunkSize)) {
      emit(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  emit(delta({}, finishReasonOf(turn)));
  if (includeUsage) emit([], { usage: wireUsage(turn) });
  frames.push('data: [DONE]\n\n');
  return frames;
}

export function openaiStreamErrorEvent(type: string, message: string): string {
  return `data: ${JSON.stringify({ error: { message, type, param: null, code: null } })}\n\n`;
}

export function openaiCompletion(turn: PlannedTurn): Json {
  const toolCalls = turn.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.args } }));
  return {
    id: turn.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: turn.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text === '' ? null : turn.text,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(turn),
      },
    ],
    usage: wireUsage(turn),
  };
}

export function openaiErrorBody(type: string, message: string): Json {
  return { error: { message, type, param: null, code: null } };
}
