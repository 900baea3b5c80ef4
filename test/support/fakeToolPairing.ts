// What the real Anthropic and OpenAI Chat Completions APIs refuse (400 invalid_request_error) about the
// pairing of tool calls and their results in a request's history, so a runtime that sends a call
// without its result (after an interruption, say) fails here as it would in production:
//   Anthropic: every `tool_use` of an assistant message needs a `tool_result` with its id in the very
//     next message (a user message), where the tool results come before any other content; every
//     `tool_result` answers a `tool_use` of the message just before; a text block is never empty.
//   OpenAI: an assistant message with `tool_calls` is followed by one `tool` message per call id, and
//     a `tool` message answers a call of the assistant message before those tool messages.
//   OpenAI Responses: every `function_call` input item has a `function_call_output` with its call_id,
//     and every output answers a call.
//   Gemini: a turn of `functionCall` parts is followed at once by a turn with as many `functionResponse`
//     parts.
// The messages quote the real APIs' own.

import type { FakeApi } from './fakeTypes.js';
import { asJson, list, str, type Json } from './wireJson.js';

export function toolPairingProblems(api: FakeApi, body: Json): string[] {
  if (api === 'anthropic') return anthropicProblems(list(body['messages']).map(asJson));
  if (api === 'openai') return openaiProblems(list(body['messages']).map(asJson));
  if (api === 'responses') return responsesProblems(list(body['input']).map(asJson));
  return geminiProblems(list(body['contents']).map(asJson));
}

function blocks(message: Json): Json[] {
  const content = message['content'];
  return typeof content === 'string' ? [{ type: 'text', text: content }] : list(content).map(asJson);
}

function anthropicProblems(messages: Json[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, i) => {
    const content = blocks(message);
    for (const [j, block] of content.entries()) {
      if (block['type'] === 'text' && str(block['text']) === '' && !(i === messages.length - 1 && message['role'] === 'assistant')) {
        problems.push(`messages.${i}.content.${j}.text: text content blocks must be non-empty`);
      }
    }
    const results = content.filter((b) => b['type'] === 'tool_result');
    if (results.length > 0) {
      const previous = i > 0 ? blocks(messages[i - 1]!) : [];
      const asked = new Set(previous.filter((b) => b['type'] === 'tool_use').map((b) => str(b['id'])));
      const unexpected = results.map((b) => str(b['tool_use_id'])).filter((id) => !asked.has(id));
      if (message['role'] !== 'user' || unexpected.length > 0) {
        problems.push(`messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ') || results.map((b) => str(b['tool_use_id'])).join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
      }
      const firstOther = content.findIndex((b) => b['type'] !== 'tool_result');
      if (firstOther !== -1 && content.slice(firstOther).some((b) => b['type'] === 'tool_result')) {
        problems.push(`messages.${i}: \`tool_result\` blocks must come first in the content of a user message, before any other content`);
      }
    }
    if (message['role'] !== 'assistant') return;
    const calls = content.filter((b) => b['type'] === 'tool_use').map((b) => str(b['id']));
    if (calls.length === 0) return;
    const next = messages[i + 1];
    const answered = new Set(next === undefined ? [] : blocks(next).filter((b) => b['type'] === 'tool_result').map((b) => str(b['tool_use_id'])));
    const missing = calls.filter((id) => !answered.has(id));
    // The last message may be an assistant turn with calls only when it is the end of the history
    // being continued (prefill); the runtimes here never send that, so it is refused too.
    if (missing.length > 0) {
      problems.push(`messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    }
  });
  return problems;
}

function openaiProblems(messages: Json[]): string[] {
  const problems: string[] = [];
  let open: { at: number; ids: Set<string> } | undefined;
  messages.forEach((message, i) => {
    if (message['role'] === 'tool') {
      const id = str(message['tool_call_id']);
      if (!open || !open.ids.has(id)) {
        problems.push(`messages.[${i}].role: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`);
      } else {
        open.ids.delete(id);
      }
      return;
    }
    if (open && open.ids.size > 0) {
      problems.push(`messages.[${open.at}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open.ids].join(', ')}`);
    }
    open = undefined;
    if (message['role'] === 'assistant') {
      const ids = list(message['tool_calls']).map((c) => str(asJson(c)['id']));
      if (ids.length > 0) open = { at: i, ids: new Set(ids) };
    }
  });
  if (open && open.ids.size > 0) {
    problems.push(`messages.[${open.at}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open.ids].join(', ')}`);
  }
  return problems;
}

function responsesProblems(items: Json[]): string[] {
  const calls = new Set(items.filter((it) => it['type'] === 'function_call').map((it) => str(it['call_id'])));
  const outputs = new Set(items.filter((it) => it['type'] === 'function_call_output').map((it) => str(it['call_id'])));
  return [
    ...[...calls].filter((id) => !outputs.has(id)).map((id) => `No tool output found for function call ${id}.`),
    ...[...outputs].filter((id) => !calls.has(id)).map((id) => `No tool call found for function call output with call_id ${id}.`),
  ];
}

function geminiProblems(contents: Json[]): string[] {
  const problems: string[] = [];
  const count = (content: Json | undefined, kind: string): number => (content === undefined ? 0 : list(content['parts']).filter((p) => asJson(p)[kind] !== undefined).length);
  contents.forEach((content, i) => {
    const calls = count(content, 'functionCall');
    const responses = count(content, 'functionResponse');
    if (responses > 0 && count(contents[i - 1], 'functionCall') === 0) {
      problems.push('Please ensure that function response turn comes immediately after a function call turn.');
    }
    if (calls > 0 && count(contents[i + 1], 'functionResponse') !== calls) {
      problems.push('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
    }
  });
  return problems;
}
