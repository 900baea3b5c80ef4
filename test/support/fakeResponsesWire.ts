// The OpenAI Responses wire format for the fake server (POST /v1/responses): reads a request body
// back into canonical shapes, encodes a planned turn as the semantic SSE events or a JSON Response,
// and — as the real API does for stateless (`store: false`) requests — holds every reasoning item it
// handed out: a request that sends one back altered, or sends a function call without the reasoning
// item that came before it, is refused with a 400. That is what proves the round trip.

import { randomBytes } from 'node:crypto';
import type { Message, Part, ToolDefinition, ToolResultContent } from '../../runtime/providers/types.js';
import type { FakeCanonicalRequest } from './fakeTypes.js';
import { chunk, type PlannedTurn } from './fakeTurnPlan.js';
import { asJson, list, str, type Json } from './wireJson.js';

export function canonicalFromResponses(body: Json): FakeCanonicalRequest {
  const messages: Message[] = [];
  const push = (role: Message['role'], part: Part): void => {
    const last = messages[messages.length - 1];
    if (last?.role === role) last.parts.push(part);
    else messages.push({ role, parts: [part] });
  };
  const input = body['input'];
  if (typeof input === 'string') push('user', { type: 'text', text: input });
  for (const raw of list(input)) {
    const item = asJson(raw);
    const type = item['type'] ?? 'message';
    if (type === 'reasoning') {
      push('assistant', { type: 'thinking', text: summaryText(item), reasoningItem: item });
    } else if (type === 'function_call') {
      const args = str(item['arguments']);
      let parsed: unknown = {};
      let malformed: string | undefined;
      try {
        parsed = JSON.parse(args);
      } catch {
        malformed = args;
      }
      const itemId = typeof item['id'] === 'string' ? { itemId: item['id'] } : {};
      push('assistant', { type: 'tool_use', id: str(item['call_id']), name: str(item['name']), input: parsed, ...(malformed !== undefined ? { malformedInput: malformed } : {}), ...itemId });
    } else if (type === 'function_call_output') {
      push('user', { type: 'tool_result', toolUseId: str(item['call_id']), content: outputContent(item['output']), isError: false });
    } else if (type === 'message') {
      const role = item['role'] === 'assistant' ? 'assistant' : 'user';
      const itemId = role === 'assistant' && typeof item['id'] === 'string' ? item['id'] : undefined;
      for (const part of contentParts(item['content'])) push(role, part.type === 'text' && itemId !== undefined ? { ...part, itemId } : part);
    }
  }
  return {
    model: str(body['model']),
    system: str(body['instructions']),
    messages,
    tools: list(body['tools']).map((t): ToolDefinition => {
      const tool = asJson(t);
      const definition: ToolDefinition = { name: str(tool['name']), description: str(tool['description']), inputSchema: asJson(tool['parameters']) };
      if (tool['strict'] === true) definition.strict = true;
      return definition;
    }),
  };
}

function summaryText(item: Json): string {
  return [...list(item['summary']), ...list(item['content'])].map((s) => str(asJson(s)['text'])).join('\n\n');
}

function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return list(content).flatMap((raw): Part[] => {
    const part = asJson(raw);
    if (part['type'] === 'input_text' || part['type'] === 'output_text') return [{ type: 'text', text: str(part['text']) }];
    if (part['type'] === 'input_image') {
      const match = /^data:([^;]+);base64,(.*)$/s.exec(str(part['image_url']));
      return match ? [{ type: 'image', mediaType: match[1] ?? '', data: match[2] ?? '' }] : [];
    }
    return [];
  });
}

function outputContent(output: unknown): ToolResultContent[] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  return contentParts(output).flatMap((p): ToolResultContent[] => (p.type === 'text' || p.type === 'image' ? [p] : []));
}

/**
 * The reasoning items a server handed out, and the function calls each came before. Like the real
 * API with `store: false`: an item must come back byte for byte (its encrypted content is checked),
 * immediately followed by the item that followed it (paired by that item's id), and a function call
 * it preceded cannot come back without it, in its place.
 */
export class ReasoningLedger {
  private readonly issued = new Map<string, string>();
  /** reasoning item id → the id of the output item right after it. */
  private readonly following = new Map<string, string>();
  /** call_id → the reasoning item ids output before it in the same response. */
  private readonly requiredFor = new Map<string, string[]>();

  /** The output items of a turn, reasoning items minted (and remembered) here. */
  outputItems(turn: PlannedTurn, body: Json): Json[] {
    const encrypted = list(body['include']).includes('reasoning.encrypted_content');
    // A reasoning model always reasons: asked for an effort, it returns an item even unscripted.
    const thinking = turn.thinking.length > 0 ? turn.thinking : body['reasoning'] !== undefined ? [{ text: '' }] : [];
    const items: Json[] = [];
    const reasoningIds: string[] = [];
    thinking.forEach((block, i) => {
      const id = `rs_${turn.id}_${i}`;
      const item: Json = {
        id,
        type: 'reasoning',
        summary: block.text === '' ? [] : [{ type: 'summary_text', text: block.text }],
        ...(encrypted ? { encrypted_content: `enc_${randomBytes(24).toString('base64url')}` } : {}),
      };
      this.issued.set(id, JSON.stringify(item));
      reasoningIds.push(id);
      items.push(item);
    });
    if (turn.text !== '') {
      items.push({
        id: `msg_${turn.id}`,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }],
      });
    }
    turn.toolCalls.forEach((call, i) => {
      if (reasoningIds.length > 0) this.requiredFor.set(call.id, reasoningIds);
      items.push({ id: `fc_${turn.id}_${i}`, type: 'function_call', status: 'completed', call_id: call.id, name: call.name, arguments: call.args });
    });
    items.forEach((item, i) => {
      const next = items[i + 1];
      if (item['type'] === 'reasoning' && next !== undefined && next['type'] !== 'reasoning') this.following.set(str(item['id']), str(next['id']));
    });
    return items;
  }

  /** Why the real API would refuse this request's input, or undefined. */
  problem(body: Json): string | undefined {
    const input = list(body['input']).map(asJson);
    for (const [index, item] of input.entries()) {
      if (item['type'] === 'reasoning') {
        const id = str(item['id']);
        const issued = this.issued.get(id);
        if (issued === undefined || !sameJson(issued, item)) {
          return `The encrypted content for item ${id} could not be verified.`;
        }
        const next = this.following.get(id);
        if (next !== undefined && input[index + 1]?.['id'] !== next) {
          return `Item '${id}' of type 'reasoning' was provided without its required following item.`;
        }
      }
      if (item['type'] === 'function_call') {
        for (const required of this.requiredFor.get(str(item['call_id'])) ?? []) {
          if (!precededInTurn(input, index, required)) {
            return `Item with call_id '${str(item['call_id'])}' of type 'function_call' was provided without its required 'reasoning' item: '${required}'.`;
          }
        }
      }
    }
    return undefined;
  }
}

/** Whether reasoning item `id` comes before input[index] with only assistant-side items between. */
function precededInTurn(input: Json[], index: number, id: string): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const item = input[i]!;
    if (item['type'] === 'reasoning' && item['id'] === id) return true;
    const assistantSide = item['type'] === 'reasoning' || item['type'] === 'function_call' || (item['role'] === 'assistant' && (item['type'] ?? 'message') === 'message');
    if (!assistantSide) return false;
  }
  return false;
}

/** Same JSON value, whatever the key order (a client may re-serialize; it may not change a value). */
function sameJson(issued: string, item: Json): boolean {
  return stableJson(JSON.parse(issued)) === stableJson(item);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Json)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function wireUsage(turn: PlannedTurn, reasoningTokens: number): Json {
  const input = turn.usage.inputTokens + turn.usage.cacheReadTokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: turn.usage.cacheReadTokens, cache_write_tokens: 0 },
    output_tokens: turn.usage.outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: input + turn.usage.outputTokens,
  };
}

/** The Response object: what `response.completed` carries, and the JSON answer when not streaming. */
export function responsesResponse(turn: PlannedTurn, output: Json[], body: Json): Json {
  const incomplete = turn.stopReason === 'max_tokens' ? 'max_output_tokens' : turn.stopReason === 'refusal' ? 'content_filter' : undefined;
  const reasoningTokens = turn.thinking.reduce((sum, t) => sum + Math.ceil(t.text.length / 4), 0);
  return {
    id: `resp_${turn.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    instructions: body['instructions'] ?? null,
    model: turn.model,
    output,
    parallel_tool_calls: true,
    store: body['store'] ?? true,
    tools: body['tools'] ?? [],
    usage: wireUsage(turn, Math.min(reasoningTokens, turn.usage.outputTokens)),
  };
}

/** Every SSE frame of a streamed turn, in the order the real API sends them. */
export function responsesStreamEvents(turn: PlannedTurn, output: Json[], body: Json): string[] {
  const frames: string[] = [];
  let sequence = 0;
  const emit = (type: string, data: Json): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  };
  const final = responsesResponse(turn, output, body);
  const pending = { ...final, status: 'in_progress', output: [], usage: null, incomplete_details: null };
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  output.forEach((item, outputIndex) => {
    const id = str(item['id']);
    if (item['type'] === 'reasoning') {
      // `added` carries no encrypted content: only the `done` item is complete.
      emit('response.output_item.added', { output_index: outputIndex, item: { id, type: 'reasoning', summary: [] } });
      list(item['summary']).forEach((s, summaryIndex) => {
        const text = str(asJson(s)['text']);
        for (const piece of chunk(text, turn.chunkSize)) emit('response.reasoning_summary_text.delta', { item_id: id, output_index: outputIndex, summary_index: summaryIndex, delta: piece });
        emit('response.reasoning_summary_text.done', { item_id: id, output_index: outputIndex, summary_index: summaryIndex, text });
      });
    } else if (item['type'] === 'message') {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      emit('response.content_part.added', { item_id: id, output_index: outputIndex, content_index: 0, part });
      for (const piece of chunk(turn.text, turn.chunkSize)) emit('response.output_text.delta', { item_id: id, output_index: outputIndex, content_index: 0, delta: piece, logprobs: [] });
      emit('response.output_text.done', { item_id: id, output_index: outputIndex, content_index: 0, text: turn.text, logprobs: [] });
      emit('response.content_part.done', { item_id: id, output_index: outputIndex, content_index: 0, part: { ...part, text: turn.text } });
    } else if (item['type'] === 'function_call') {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
      const args = str(item['arguments']);
      for (const piece of chunk(args, turn.chunkSize)) emit('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta: piece });
      emit('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, arguments: args });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  emit(final['status'] === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  return frames;
}

/** The `error` event the real API sends when a stream fails mid-way. */
export function responsesStreamErrorEvent(type: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', code: type, message, param: null, sequence_number: 9999 })}\n\n`;
}
