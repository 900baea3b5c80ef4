// Translates a canonical ModelRequest into Anthropic Messages API parameters: system prompt and
// last tool marked for prompt caching, thinking blocks echoed verbatim, reasoning mapped to a
// thinking budget with max_tokens raised so the visible answer keeps its full allowance. A tool
// marked strict is sent in its strict form (strictSchema.ts) with `strict: true`.

import type Anthropic from '@anthropic-ai/sdk';
import { strictToolSchema } from './strictSchema.js';
import type { Message, ModelRequest, Part, ToolDefinition, ToolResultContent } from './types.js';

type Params = Anthropic.MessageCreateParamsStreaming;
type BlockParam = Anthropic.ContentBlockParam;
type ImageMediaType = Anthropic.Base64ImageSource['media_type'];

export const THINKING_BUDGETS: Readonly<Record<NonNullable<ModelRequest['reasoning']>, number>> = {
  low: 2048,
  medium: 8192,
  high: 24576,
};

export interface AnthropicRequestOptions {
  /** Also mark the last block of the final user message, so the growing conversation is cached. */
  cacheConversation: boolean;
}

export function toAnthropicParams(request: ModelRequest, options: AnthropicRequestOptions): Params {
  const adaptive = request.reasoningForm === 'adaptive';
  const budget = request.reasoning && !adaptive ? THINKING_BUDGETS[request.reasoning] : undefined;
  const messages = request.messages.map(toMessageParam);
  if (options.cacheConversation) markLastUserBlock(messages);
  const params: Params = {
    model: request.model,
    max_tokens: request.maxOutputTokens + (budget ?? 0),
    messages,
    stream: true,
  };
  if (request.system !== '') {
    params.system = [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }];
  }
  if (request.tools.length > 0) {
    const last = request.tools.length - 1;
    params.tools = request.tools.map((tool, index) => {
      const param = toolParam(tool);
      return index === last ? { ...param, cache_control: { type: 'ephemeral' as const } } : param;
    });
  }
  if (budget !== undefined) params.thinking = { type: 'enabled', budget_tokens: budget };
  if (adaptive && request.reasoning) {
    params.thinking = { type: 'adaptive' };
    params.output_config = { effort: request.reasoning };
  }
  return params;
}

/**
 * A tool definition in the API's form, converted once per definition object (the toolbox hands out
 * the same objects turn after turn, and the commanders of a fan-out share theirs). Never changed
 * after it is made: the cache breakpoint goes on a copy.
 */
const toolParams = new WeakMap<ToolDefinition, Anthropic.Tool>();

function toolParam(tool: ToolDefinition): Anthropic.Tool {
  let param = toolParams.get(tool);
  if (param === undefined) {
    const strict = tool.strict ? strictToolSchema(tool.inputSchema, 'anthropic') : undefined;
    param = {
      name: tool.name,
      description: tool.description,
      input_schema: (strict ?? { type: 'object', ...tool.inputSchema }) as Anthropic.Tool.InputSchema,
      ...(strict ? { strict: true } : {}),
    };
    toolParams.set(tool, param);
  }
  return param;
}

function toMessageParam(message: Message): Anthropic.MessageParam {
  return { role: message.role, content: message.parts.flatMap(toBlock) };
}

function toBlock(part: Part): BlockParam[] {
  switch (part.type) {
    case 'text':
      // The API rejects empty text blocks.
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'thinking':
      // An OpenAI reasoning item (a session that changed model) has no Anthropic form.
      if (part.reasoningItem !== undefined) return [];
      return part.redactedData !== undefined
        ? [{ type: 'redacted_thinking', data: part.redactedData }]
        : [{ type: 'thinking', thinking: part.text, signature: part.signature ?? '' }];
    case 'tool_use':
      return [{ type: 'tool_use', id: part.id, name: part.name, input: isObject(part.input) ? part.input : {} }];
    case 'tool_result':
      return [
        {
          type: 'tool_result',
          tool_use_id: part.toolUseId,
          content: part.content.map(toResultBlock),
          ...(part.isError ? { is_error: true } : {}),
        },
      ];
    case 'image':
      return [imageBlock(part.mediaType, part.data)];
  }
}

function toResultBlock(content: ToolResultContent): Anthropic.TextBlockParam | Anthropic.ImageBlockParam {
  return content.type === 'text' ? { type: 'text', text: content.text } : imageBlock(content.mediaType, content.data);
}

function imageBlock(mediaType: string, data: string): Anthropic.ImageBlockParam {
  // An unsupported media type is sent as is: the API's 400 names it better than we could.
  return { type: 'image', source: { type: 'base64', media_type: mediaType as ImageMediaType, data } };
}

/** Prompt caching of the conversation: a breakpoint on the newest user block. */
function markLastUserBlock(messages: Anthropic.MessageParam[]): void {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user' || !Array.isArray(last.content)) return;
  const block = last.content[last.content.length - 1];
  if (!block) return;
  if (block.type === 'text' || block.type === 'tool_result' || block.type === 'image') {
    block.cache_control = { type: 'ephemeral' };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
