// The Anthropic Messages wire format for the fake server: reads a request body back into canonical
// shapes (system blocks joined, cache_control dropped, thinking and redacted_thinking kept
// verbatim) and encodes a planned turn as SSE events, a JSON message or an error body.

import type { Message, Part, ToolDefinition, ToolResultContent } from '../../runtime/providers/types.js';
import type { FakeCanonicalRequest } from './fakeTypes.js';
import { chunk, type PlannedTurn } from './fakeTurnPlan.js';
import { asJson, list, str, type Json } from './wireJson.js';

export function canonicalFromAnthropic(body: Json): FakeCanonicalRequest {
  const system = body['system'];
  return {
    model: str(body['model']),
    system: typeof system === 'string' ? system : list(system).map((block) => str(asJson(block)['text'])).join('\n\n'),
    messages: list(body['messages']).map((m) => {
      const message = asJson(m);
      const content = message['content'];
      const parts = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : list(content).flatMap(toPart);
      return { role: message['role'] === 'assistant' ? 'assistant' : 'user', parts } satisfies Message;
    }),
    tools: list(body['tools']).map((t): ToolDefinition => {
      const tool = asJson(t);
      const definition: ToolDefinition = { name: str(tool['name']), description: str(tool['description']), inputSchema: asJson(tool['input_schema']) };
      if (tool['strict'] === true) definition.strict = true;
      return definition;
    }),
  };
}

function toPart(value: unknown): Part[] {
  const block = asJson(value);
  switch (block['type']) {
    case 'text':
      return [{ type: 'text', text: str(block['text']) }];
    case 'thinking':
      return [{ type: 'thinking', text: str(block['thinking']), signature: str(block['signature']) }];
    case 'redacted_thinking':
      return [{ type: 'thinking', text: '', redactedData: str(block['data']) }];
    case 'tool_use':
      return [{ type: 'tool_use', id: str(block['id']), name: str(block['name']), input: block['input'] }];
    case 'tool_result': {
      const content = block['content'];
      const items: ToolResultContent[] =
        typeof content === 'string' ? [{ type: 'text', text: content }] : list(content).flatMap(toResultContent);
      return [{ type: 'tool_result', toolUseId: str(block['tool_use_id']), content: items, isError: block['is_error'] === true }];
    }
    case 'image': {
      const source = asJson(block['source']);
      return [{ type: 'image', mediaType: str(source['media_type']), data: str(source['data']) }];
    }
    default:
      return [];
  }
}

function toResultContent(value: unknown): ToolResultContent[] {
  const block = asJson(value);
  if (block['type'] === 'text') return [{ type: 'text', text: str(block['text']) }];
  if (block['type'] === 'image') {
    const source = asJson(block['source']);
    return [{ type: 'image', mediaType: str(source['media_type']), data: str(source['data']) }];
  }
  return [];
}

/** The wire stop reason of a planned turn. */
function stopReasonOf(turn: PlannedTurn): string {
  return turn.rawStopReason ?? turn.stopReason;
}

function wireUsage(turn: PlannedTurn): Json {
  return {
    input_tokens: turn.usage.inputTokens,
    output_tokens: turn.usage.outputTokens,
    cache_creation_input_tokens: turn.usage.cacheWriteTokens,
    cache_read_input_tokens: turn.usage.cacheReadTokens,
  };
}

/** Every SSE event of a streamed turn, in order, each a complete `event:`/`data:` frame. */
export function anthropicStreamEvents(turn: PlannedTurn): string[] {
  const events: string[] = [];
  const emit = (type: string, data: Json): void => {
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  emit('message_start', {
    message: {
      id: turn.id,
      type: 'message',
      role: 'assistant',
      model: turn.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...wireUsage(turn), output_tokens: 1 },
    },
  });
  emit('ping', {});
  let index = 0;
  for (const block of turn.thinking) {
    if (block.redactedData !== undefined) {
      emit('content_block_start', { index, content_block: { type: 'redacted_thinking', data: block.redactedData } });
    } else {
      emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const piece of chunk(block.text, turn.chunkSize)) {
        emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
      }
      emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    }
    emit('content_block_stop', { index });
    index++;
  }
  if (turn.text !== '') {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of chunk(turn.text, turn.chunkSize)) {
      emit('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    }
    emit('content_block_stop', { index });
    index++;
  }
  for (const call of turn.toolCalls) {
    emit('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    for (const piece of chunk(call.args, turn.chunkSize)) {
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    emit('content_block_stop', { index });
    index++;
  }
  emit('message_delta', {
    delta: { stop_reason: stopReasonOf(turn), stop_sequence: null },
    usage: { output_tokens: turn.usage.outputTokens },
  });
  emit('message_stop', {});
  return events;
}

export function anthropicStreamErrorEvent(type: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
}

export function anthropicMessage(turn: PlannedTurn): Json {
  const content: Json[] = [];
  for (const block of turn.thinking) {
    content.push(
      block.redactedData !== undefined
        ? { type: 'redacted_thinking', data: block.redactedData }
        : { type: 'thinking', thinking: block.text, signature: block.signature },
    );
  }
  if (turn.text !== '') content.push({ type: 'text', text: turn.text, citations: null });
  for (const call of turn.toolCalls) {
    let input: unknown;
    try {
      input = JSON.parse(call.args);
    } catch {
      // A non-streamed Anthropic reply always carries an object; malformed input only exists in streams.
      input = {};
    }
    content.push({ type: 'tool_use', id: call.id, name: call.name, input });
  }
  return {
    id: turn.id,
    type: 'message',
    role: 'assistant',
    model: turn.model,
    content,
    stop_reason: stopReasonOf(turn),
    stop_sequence: null,
    usage: wireUsage(turn),
  };
}

export function anthropicErrorBody(type: string, message: string): Json {
  return { type: 'error', error: { type, message } };
}
