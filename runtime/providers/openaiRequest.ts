// Translates a canonical ModelRequest into OpenAI Chat Completions parameters. Tool results become
// one `tool` message each (images from them follow in a user message, since tool messages carry
// text only); thinking parts are not sent back (Chat Completions has no way to echo them). A tool
// marked strict goes out in OpenAI's strict form (strictSchema.ts) with `strict: true`.

import type OpenAI from 'openai';
import { strictToolSchema } from './strictSchema.js';
import type { Message, ModelRequest, Part, ToolDefinition, ToolResultPart } from './types.js';

type Params = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type UserContentPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

export interface OpenAIRequestOptions {
  /** Whether this model accepts `reasoning_effort`; otherwise a requested reasoning level is dropped. */
  supportsReasoning: (model: string) => boolean;
  /** OpenAI's own API wants `max_completion_tokens`; many compatible servers only know `max_tokens`. */
  maxTokensField: MaxTokensField;
}

/** Text sent in place of a tool result flagged as an error (Chat Completions has no error flag). */
export const TOOL_ERROR_PREFIX = 'Error: ';

export function toOpenAIParams(request: ModelRequest, options: OpenAIRequestOptions): Params {
  const messages: MessageParam[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(...toMessageParams(message));
  const reasoning = request.reasoning && options.supportsReasoning(request.model) ? request.reasoning : undefined;
  const params: Params = {
    model: request.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  // Reasoning models reject `max_tokens`, whatever the server.
  const field = reasoning ? 'max_completion_tokens' : options.maxTokensField;
  params[field] = request.maxOutputTokens;
  if (request.tools.length > 0) {
    params.tools = request.tools.map(toolParam);
  }
  if (reasoning) params.reasoning_effort = reasoning;
  return params;
}

/** A tool definition in the API's form, converted once per definition object (see anthropicRequest.ts). */
const toolParams = new WeakMap<ToolDefinition, OpenAI.Chat.Completions.ChatCompletionTool>();

function toolParam(tool: ToolDefinition): OpenAI.Chat.Completions.ChatCompletionTool {
  let param = toolParams.get(tool);
  if (param === undefined) {
    const strict = tool.strict ? strictToolSchema(tool.inputSchema, 'openai') : undefined;
    const parameters = strict ?? { type: 'object', ...tool.inputSchema };
    param = { type: 'function', function: { name: tool.name, description: tool.description, parameters, ...(strict ? { strict: true } : {}) } };
    toolParams.set(tool, param);
  }
  return param;
}

function toMessageParams(message: Message): MessageParam[] {
  return message.role === 'assistant' ? [toAssistantParam(message.parts)] : toUserParams(message.parts);
}

function toAssistantParam(parts: Part[]): MessageParam {
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const toolCalls = parts.flatMap((part) =>
    part.type === 'tool_use'
      ? [
          {
            id: part.id,
            type: 'function' as const,
            // Malformed arguments are not echoed: a server may refuse history it cannot parse.
            function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) },
          },
        ]
      : [],
  );
  if (toolCalls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls };
}

function toUserParams(parts: Part[]): MessageParam[] {
  const toolMessages: MessageParam[] = [];
  const userContent: UserContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'tool_result') {
      toolMessages.push(toToolMessage(part));
      for (const item of part.content) {
        if (item.type !== 'image') continue;
        userContent.push({ type: 'text', text: `Image returned by tool call ${part.toolUseId}:` });
        userContent.push(imagePart(item.mediaType, item.data));
      }
    } else if (part.type === 'text') {
      userContent.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') {
      userContent.push(imagePart(part.mediaType, part.data));
    }
  }
  if (userContent.length === 0) return toolMessages;
  const [first] = userContent;
  const content = userContent.length === 1 && first?.type === 'text' ? first.text : userContent;
  return [...toolMessages, { role: 'user', content }];
}

function toToolMessage(part: ToolResultPart): MessageParam {
  const text = part.content
    .map((item) => (item.type === 'text' ? item.text : '[image: sent in the next user message]'))
    .join('\n');
  return { role: 'tool', tool_call_id: part.toolUseId, content: part.isError ? `${TOOL_ERROR_PREFIX}${text}` : text };
}

function imagePart(mediaType: string, data: string): UserContentPart {
  return { type: 'image_url', image_url: { url: `data:${mediaType};base64,${data}` } };
}
