// Translates a canonical ModelRequest into OpenAI Responses API parameters, stateless: the whole
// conversation goes out as input items on every request (`store: false`, no previous_response_id),
// with each reasoning item a response returned sent back unchanged and in its place, so the
// model keeps its reasoning across tool calls and a resume needs nothing but our store.
// System prompt → `instructions`; assistant text → an assistant `message` item; a tool call → a
// `function_call` item (call_id, JSON-string arguments); a tool result → a `function_call_output`
// item. Flat tool definitions, strict where strictSchema.ts can make the schema strict.

import type OpenAI from 'openai';
import { strictToolSchema } from './strictSchema.js';
import { TOOL_ERROR_PREFIX } from './openaiRequest.js';
import type { Message, ModelRequest, Part, ToolDefinition, ToolResultPart } from './types.js';

type Params = OpenAI.Responses.ResponseCreateParamsStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputContent;
type FunctionTool = OpenAI.Responses.FunctionTool;

export interface ResponsesRequestOptions {
  /** Whether this model accepts `reasoning.effort`; otherwise a requested reasoning level is dropped. */
  supportsReasoning: (model: string) => boolean;
}

export function toResponsesParams(request: ModelRequest, options: ResponsesRequestOptions): Params {
  const input: InputItem[] = [];
  for (const message of request.messages) input.push(...toInputItems(message));
  const params: Params = {
    model: request.model,
    input,
    stream: true,
    store: false,
    max_output_tokens: request.maxOutputTokens,
    // Reasoning items come back with their encrypted content, which is what lets them be sent back
    // with store: false. A model that does not reason returns none.
    include: ['reasoning.encrypted_content'],
  };
  if (request.system !== '') params.instructions = request.system;
  if (request.tools.length > 0) params.tools = request.tools.map(toolParam);
  if (request.reasoning && options.supportsReasoning(request.model)) {
    params.reasoning = { effort: request.reasoning, summary: 'auto' };
  }
  return params;
}

/** A tool definition in the API's flat form, converted once per definition object (see anthropicRequest.ts). */
const toolParams = new WeakMap<ToolDefinition, FunctionTool>();

function toolParam(tool: ToolDefinition): FunctionTool {
  let param = toolParams.get(tool);
  if (param === undefined) {
    const strict = tool.strict ? strictToolSchema(tool.inputSchema, 'openai') : undefined;
    param = { type: 'function', name: tool.name, description: tool.description, parameters: strict ?? { type: 'object', ...tool.inputSchema }, strict: strict !== undefined };
    toolParams.set(tool, param);
  }
  return param;
}

function toInputItems(message: Message): InputItem[] {
  return message.role === 'assistant' ? assistantItems(message.parts) : userItems(message.parts);
}

/**
 * Output items in the order the model produced them: reasoning, text, function calls. A reasoning
 * item is paired with the item after it by that item's id, so when the turn holds one, its message
 * and function_call items go back with their ids (and a message in its output form).
 */
function assistantItems(parts: Part[]): InputItem[] {
  const paired = parts.some((p) => p.type === 'thinking' && p.reasoningItem !== undefined);
  const items: InputItem[] = [];
  let text = '';
  const flushText = (): void => {
    if (text !== '') items.push({ type: 'message', role: 'assistant', content: text });
    text = '';
  };
  for (const part of parts) {
    if (part.type === 'text' && !(paired && part.itemId !== undefined)) {
      text += part.text;
      continue;
    }
    flushText();
    if (part.type === 'text') {
      items.push({ type: 'message', role: 'assistant', id: part.itemId!, status: 'completed', content: [{ type: 'output_text', text: part.text, annotations: [] }] });
    } else if (part.type === 'thinking' && part.reasoningItem !== undefined) {
      // Unchanged: the server checks the encrypted content it issued.
      items.push(part.reasoningItem as unknown as InputItem);
    } else if (part.type === 'tool_use') {
      // Malformed arguments are not echoed: a server may refuse history it cannot parse.
      const id = paired && part.itemId !== undefined ? { id: part.itemId } : {};
      items.push({ type: 'function_call', ...id, call_id: part.id, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
    }
    // Thinking from another API (Anthropic thinking, Chat Completions reasoning text) has no form here.
  }
  flushText();
  return items;
}

function userItems(parts: Part[]): InputItem[] {
  const items: InputItem[] = [];
  const content: InputContent[] = [];
  for (const part of parts) {
    if (part.type === 'tool_result') items.push(functionCallOutput(part));
    else if (part.type === 'text') content.push({ type: 'input_text', text: part.text });
    else if (part.type === 'image') content.push(inputImage(part.mediaType, part.data));
  }
  if (content.length > 0) {
    const [first] = content;
    items.push({ type: 'message', role: 'user', content: content.length === 1 && first?.type === 'input_text' ? first.text : content });
  }
  return items;
}

/** A tool result: plain text, or a list when it carries images (the API takes both). */
function functionCallOutput(part: ToolResultPart): InputItem {
  const prefix = part.isError ? TOOL_ERROR_PREFIX : '';
  const hasImage = part.content.some((c) => c.type === 'image');
  if (!hasImage) {
    const text = part.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    return { type: 'function_call_output', call_id: part.toolUseId, output: `${prefix}${text}` };
  }
  const output = part.content.map((c, i): InputContent =>
    c.type === 'text' ? { type: 'input_text', text: i === 0 ? `${prefix}${c.text}` : c.text } : inputImage(c.mediaType, c.data),
  );
  return { type: 'function_call_output', call_id: part.toolUseId, output } as InputItem;
}

function inputImage(mediaType: string, data: string): OpenAI.Responses.ResponseInputImage {
  return { type: 'input_image', detail: 'auto', image_url: `data:${mediaType};base64,${data}` };
}
