// Translates a canonical ModelRequest into Gemini `generateContent` parameters (the @google/genai
// SDK's form, which it sends as the REST body): the system prompt as `systemInstruction`, tools as
// function declarations with their JSON schema as is, assistant turns as `model` contents whose
// `functionCall` parts carry object args, and every tool result of a turn as a `functionResponse`
// part of one `user` content. Thought signatures go back on the part they came on; thought text
// never does. A function-call turn that carries no signature at all (a history from another
// provider) gets Google's documented placeholder on its first call, so Gemini 3 accepts it.

import type { Content, GenerateContentParameters, Part as GeminiPart, Tool } from '@google/genai';
import { THINKING_BUDGETS } from './anthropicRequest.js';
import type { Message, ModelRequest, Part, ToolDefinition, ToolResultPart } from './types.js';

/**
 * What a function call that did not come from Gemini carries instead of a thought signature
 * (https://ai.google.dev/gemini-api/docs/thought-signatures, "FAQ": histories transferred from
 * another model or with injected function calls).
 */
export const PLACEHOLDER_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Ids the adapter gives function calls the server sent without one (the Gemini API leaves
 * `functionCall.id` unset): kept in our store to pair results, never sent back as an id.
 */
export const LOCAL_CALL_ID_PREFIX = 'gemini_call_';

/** Gemini 3 and later validate signatures and take thinking levels; 1.x and 2.x do neither. */
function isGemini3OrLater(model: string): boolean {
  return !/^(models\/)?gemini-[12][.-]/.test(model);
}

export function toGeminiParams(request: ModelRequest): GenerateContentParameters {
  const names = callNames(request.messages);
  const placeholder = isGemini3OrLater(request.model);
  const contents: Content[] = [];
  for (const message of request.messages) {
    const content = message.role === 'assistant' ? modelContent(message.parts, placeholder) : userContent(message.parts, names);
    if (content.parts!.length > 0) contents.push(content);
  }
  // The catalog says which form a model takes; for an alias it does not know, the model id does.
  const levels = request.reasoningForm === 'adaptive' || (request.reasoningForm === undefined && isGemini3OrLater(request.model));
  const budget = request.reasoning && !levels ? THINKING_BUDGETS[request.reasoning] : undefined;
  const params: GenerateContentParameters = {
    model: request.model,
    contents,
    config: {
      // Gemini counts thinking tokens within maxOutputTokens: a budget is added on top, as for Anthropic.
      maxOutputTokens: request.maxOutputTokens + (budget ?? 0),
      automaticFunctionCalling: { disable: true },
    },
  };
  const config = params.config!;
  if (request.system !== '') config.systemInstruction = { parts: [{ text: request.system }] };
  if (request.tools.length > 0) config.tools = [{ functionDeclarations: request.tools.map(declaration) }];
  if (request.reasoning) {
    config.thinkingConfig =
      budget !== undefined
        ? { includeThoughts: true, thinkingBudget: budget }
        : { includeThoughts: true, thinkingLevel: request.reasoning.toUpperCase() as NonNullable<NonNullable<typeof config.thinkingConfig>['thinkingLevel']> };
  }
  return params;
}

/** A tool declaration in the API's form, made once per definition object (see anthropicRequest.ts). */
const declarations = new WeakMap<ToolDefinition, NonNullable<Tool['functionDeclarations']>[number]>();

function declaration(tool: ToolDefinition): NonNullable<Tool['functionDeclarations']>[number] {
  let made = declarations.get(tool);
  if (made === undefined) {
    // `parametersJsonSchema` takes JSON Schema as it is (the older `parameters` wants an OpenAPI
    // subset). Gemini has no strict mode: a strict tool is sent like any other and checked by us.
    made = { name: tool.name, description: tool.description, parametersJsonSchema: { type: 'object', ...tool.inputSchema } };
    declarations.set(tool, made);
  }
  return made;
}

/** Every function call's name by id: a functionResponse names its function. */
function callNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) if (part.type === 'tool_use') names.set(part.id, part.name);
  }
  return names;
}

function modelContent(parts: readonly Part[], placeholder: boolean): Content {
  const out: GeminiPart[] = [];
  const signed = parts.some((p) => (p.type === 'text' || p.type === 'thinking' || p.type === 'tool_use') && p.thoughtSignature !== undefined);
  let firstCall = true;
  for (const part of parts) {
    if (part.type === 'thinking') {
      // The thought text stays ours; its signature, if any, goes back where it was (as Gemini itself
      // sends a lone signature: on an empty text part).
      if (part.thoughtSignature !== undefined) out.push({ text: '', thoughtSignature: part.thoughtSignature });
    } else if (part.type === 'text') {
      out.push(part.thoughtSignature !== undefined ? { text: part.text, thoughtSignature: part.thoughtSignature } : { text: part.text });
    } else if (part.type === 'tool_use') {
      const call: GeminiPart = { functionCall: { ...callId(part.id), name: part.name, args: objectArgs(part.input) } };
      const signature = part.thoughtSignature ?? (firstCall && !signed && placeholder ? PLACEHOLDER_THOUGHT_SIGNATURE : undefined);
      if (signature !== undefined) call.thoughtSignature = signature;
      out.push(call);
      firstCall = false;
    }
  }
  return { role: 'model', parts: out };
}

function userContent(parts: readonly Part[], names: ReadonlyMap<string, string>): Content {
  const responses: GeminiPart[] = [];
  const rest: GeminiPart[] = [];
  for (const part of parts) {
    if (part.type === 'tool_result') {
      responses.push(functionResponse(part, names));
      for (const item of part.content) {
        if (item.type === 'image') rest.push({ inlineData: { mimeType: item.mediaType, data: item.data } });
      }
    } else if (part.type === 'text') {
      rest.push({ text: part.text });
    } else if (part.type === 'image') {
      rest.push({ inlineData: { mimeType: part.mediaType, data: part.data } });
    }
  }
  // All results of a turn first, together, then anything else the user turn holds.
  return { role: 'user', parts: [...responses, ...rest] };
}

function functionResponse(part: ToolResultPart, names: ReadonlyMap<string, string>): GeminiPart {
  const text = part.content.map((item) => (item.type === 'text' ? item.text : '[image: sent after the function responses]')).join('\n');
  return {
    functionResponse: {
      ...callId(part.toolUseId),
      name: names.get(part.toolUseId) ?? part.toolUseId,
      // The API's documented keys: "output" for a result, "error" for a failure.
      response: part.isError ? { error: text } : { output: text },
    },
  };
}

function callId(id: string): { id?: string } {
  return id.startsWith(LOCAL_CALL_ID_PREFIX) ? {} : { id };
}

function objectArgs(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}
