// What replay compares between a live request and the recorded one, and the one-line cause it gives
// when they differ. Compared: the model, the system prompt, the names of the offered tools, and every
// message except what tools returned (tool results carry ids, times and other output that varies
// between runs; what the model did with them is in its recorded replies, which are compared).

import { firstDifference, type CanonicalRequest } from './cassette.js';
import type { Part, RequestTrace } from './types.js';

type MatchedPart = Part | { type: 'tool_result'; toolUseId: string };

/** The projection of a request that must be equal for a recorded answer to be served. */
export interface MatchedRequest {
  model: string;
  system: string;
  tools: string[];
  messages: { role: 'user' | 'assistant'; parts: MatchedPart[] }[];
}

export function matchedRequest(request: CanonicalRequest): MatchedRequest {
  return {
    model: request.model,
    system: request.system,
    tools: request.tools.map((t) => t.name),
    messages: request.messages.map((m) => ({
      role: m.role,
      parts: m.parts.map((p): MatchedPart => (p.type === 'tool_result' ? { type: 'tool_result', toolUseId: p.toolUseId } : p)),
    })),
  };
}

/** Why the recorded request does not answer the live one, in a phrase; undefined when they match. */
export function mismatchCause(recorded: MatchedRequest, live: MatchedRequest, trace: RequestTrace): string | undefined {
  const found = firstDifference(recorded, live);
  if (!found) return undefined;
  const [field, index] = found.keys;
  if (field === 'model') return `the model differs from the recording (recorded ${recorded.model}, now ${live.model})`;
  if (field === 'system') {
    return `the system prompt differs from the recording${changed(recorded.system, live.system)} (the config or the prompts changed since it was recorded?)`;
  }
  if (field === 'tools') {
    return `the tools offered differ from the recording (recorded ${names(recorded.tools)}, now ${names(live.tools)}; the task's tools changed?)`;
  }
  if (typeof index !== 'number') return `the request differs from the recording at ${found.path}`;
  const before = recorded.messages[index];
  const now = live.messages[index];
  if (before === undefined || now === undefined || found.keys.length === 2) {
    return `the conversation differs from the recording: ${recorded.messages.length} messages were recorded, this request has ${live.messages.length}`;
  }
  const span = changed(textOf(before.parts), textOf(now.parts));
  if (index === 0 && now.role === 'user') {
    return trace.agent === 'commander'
      ? `the task objective differs from the recording${span} (a mission input changed? a cassette holds answers for the inputs it was recorded with only)`
      : `the instruction to ${trace.agent} differs from the recording${span}`;
  }
  return now.role === 'user'
    ? `message ${index + 1} of the conversation differs from the recording${span}`
    : `the model's earlier reply (message ${index + 1}) differs from the recording${span}`;
}

function textOf(parts: readonly MatchedPart[]): string {
  return parts.map((p) => (p.type === 'text' ? p.text : p.type === 'tool_use' ? `${p.name} ${JSON.stringify(p.input)}` : '')).join('\n');
}

function names(list: readonly string[]): string {
  return list.length === 0 ? 'none' : list.length <= 6 ? list.join(', ') : `${list.slice(0, 6).join(', ')} and ${list.length - 6} more`;
}

const SHOWN = 40;

/** `: "tide pools" recorded, "volcanoes" now` — the differing words of two texts, or nothing. */
function changed(recorded: string, live: string): string {
  let start = 0;
  while (start < recorded.length && start < live.length && recorded[start] === live[start]) start++;
  let end = 0;
  while (end < recorded.length - start && end < live.length - start && recorded[recorded.length - 1 - end] === live[live.length - 1 - end]) end++;
  // Widen to whole words, so a changed "tide pools" is not shown as "ide pool".
  while (start > 0 && /\S/.test(recorded[start - 1]!)) start--;
  while (end > 0 && /\S/.test(recorded[recorded.length - end]!)) end--;
  const cut = (s: string): string => {
    const middle = s.slice(start, s.length - end).replace(/\s+/g, ' ').trim();
    return middle.length > SHOWN ? `${middle.slice(0, SHOWN - 1)}…` : middle;
  };
  const a = cut(recorded);
  const b = cut(live);
  if (a === '' && b === '') return '';
  return `: ${a === '' ? 'nothing' : JSON.stringify(a)} recorded, ${b === '' ? 'nothing' : JSON.stringify(b)} now`;
}
