// A deterministic script for the fake model server keyed by conversation *state*, not by arrival
// order: the reply to a request is chosen by which agent's conversation it is (a match on the system
// prompt) and by its turn (the number of assistant messages already in the request). A request
// re-issued after a crash therefore gets the same reply again, which is what crash tests need.
//
//   const script = turnScript({
//     'commander of task "fetch"': [callAgent('worker', 'Fetch it'), (req) => taskComplete(lastToolResult(req))],
//     'worker agent of task "fetch"': [toolCall('builtins_http_get', { url }), (req) => ({ text: lastToolResult(req) })],
//   });

import type { FakeReply, FakeRequest } from './fakeTypes.js';

export type TurnReply = FakeReply | ((request: FakeRequest) => FakeReply);

export interface TurnScript {
  respond: (request: FakeRequest) => FakeReply;
  /** Requests no rule or turn covered (answered with a 400). */
  readonly problems: string[];
}

export function turnScript(rules: Record<string, TurnReply[]>): TurnScript {
  const problems: string[] = [];
  const entries = Object.entries(rules);
  return {
    problems,
    respond(request) {
      const system = request.canonical.system;
      const rule = entries.find(([match]) => system.includes(match));
      if (!rule) return problem(problems, `request ${request.n}: no rule matches system prompt ${JSON.stringify(system.slice(0, 100))}`);
      const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
      const reply = rule[1][turn];
      if (!reply) return problem(problems, `request ${request.n}: rule "${rule[0]}" has no reply for turn ${turn + 1}`);
      return typeof reply === 'function' ? reply(request) : reply;
    },
  };
}

function problem(problems: string[], message: string): FakeReply {
  problems.push(message);
  return { status: 400, errorMessage: message };
}

export function toolCall(name: string, input: unknown, id?: string): FakeReply {
  return { toolCalls: [id === undefined ? { name, input } : { name, input, id }] };
}

export function callAgent(name: string, task: string): FakeReply {
  return toolCall('call_agent', { name, task });
}

export function taskComplete(summary: string, extra: Record<string, unknown> = {}): FakeReply {
  return toolCall('task_complete', { summary, ...extra });
}

/** Text of the newest tool result in the request (what the model just received). */
export function lastToolResult(request: FakeRequest): string {
  for (let i = request.canonical.messages.length - 1; i >= 0; i--) {
    const message = request.canonical.messages[i]!;
    for (let j = message.parts.length - 1; j >= 0; j--) {
      const part = message.parts[j]!;
      if (part.type === 'tool_result') return part.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    }
  }
  return '';
}

/** Text of the first user message (the objective or the commander's instruction). */
export function firstUserMessage(request: FakeRequest): string {
  const first = request.canonical.messages.find((m) => m.role === 'user');
  return (first?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
}
