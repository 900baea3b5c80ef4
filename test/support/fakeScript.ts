// Scripts the fake model server per conversation, so an end-to-end test reads like a script:
//
//   const script = scriptConversations([
//     { match: 'commander of task "gather"', replies: [{ toolCalls: [{ name: 'call_agent', input: {...} }] }, { text: 'done' }] },
//     { match: /worker/, replies: [{ status: 429, retryAfter: 1 }, { text: '<ANSWER>42</ANSWER>' }] },
//   ]);
//   const server = await startFakeModelServer({ respond: script.respond });
//   ...
//   expect(script.unplayed()).toEqual([]);
//
// A request belongs to the first rule whose `match` fits: a string is searched in the system
// prompt and the first user message, a RegExp is tested on each, a function gets the request.
// Each distinct conversation (key: system prompt + first user message) has its own cursor over
// its rule's replies, so parallel conversations (e.g. iterations) each play the whole script;
// `shared: true` makes every conversation of the rule consume one queue instead. Every request
// consumes one reply, failures included, so `[{ status: 500 }, { text: 'ok' }]` scripts a retry.
// A request with no rule or no reply left is answered with a 400 naming it, and recorded in
// `script.problems`.

import type { FakeReply, FakeRequest } from './fakeTypes.js';

export type FakeScriptedReply = FakeReply | ((request: FakeRequest) => FakeReply);

export interface FakeScriptRule {
  match: string | RegExp | ((request: FakeRequest) => boolean);
  replies: FakeScriptedReply[];
  shared?: boolean;
  /** Shown in problems and unplayed(); default the match's text. */
  name?: string;
}

export interface FakeScript {
  respond: (request: FakeRequest) => FakeReply;
  /** Requests that found no rule or no reply left. */
  readonly problems: string[];
  /** Rules/conversations with replies not yet played, e.g. `worker (conversation 1): 1 of 2 left`. */
  unplayed(): string[];
}

/** Identifies a conversation: its system prompt and first user message (stable across its turns). */
export function conversationKey(request: FakeRequest): string {
  return `${request.canonical.system}\u0000${firstUserText(request)}`;
}

export function firstUserText(request: FakeRequest): string {
  const first = request.canonical.messages.find((m) => m.role === 'user');
  return (first?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
}

export function scriptConversations(rules: FakeScriptRule[]): FakeScript {
  const cursors = rules.map(() => new Map<string, number>());
  const problems: string[] = [];

  function respond(request: FakeRequest): FakeReply {
    const index = rules.findIndex((rule) => matches(rule.match, request));
    const rule = rules[index];
    const cursorMap = cursors[index];
    if (!rule || !cursorMap) {
      return problem(`no script rule matches request ${request.n} (system starts ${JSON.stringify(request.canonical.system.slice(0, 80))})`);
    }
    const key = rule.shared ? '' : conversationKey(request);
    const position = cursorMap.get(key) ?? 0;
    const scripted = rule.replies[position];
    if (!scripted) {
      return problem(`script rule ${ruleName(rule)} has no reply left for request ${request.n} (all ${rule.replies.length} played)`);
    }
    cursorMap.set(key, position + 1);
    return typeof scripted === 'function' ? scripted(request) : scripted;
  }

  function problem(message: string): FakeReply {
    problems.push(message);
    return { status: 400, errorType: 'invalid_request_error', errorMessage: `fake script: ${message}` };
  }

  function unplayed(): string[] {
    const out: string[] = [];
    rules.forEach((rule, i) => {
      const cursorMap = cursors[i] ?? new Map<string, number>();
      if (cursorMap.size === 0 && rule.replies.length > 0) out.push(`${ruleName(rule)}: never requested`);
      let conversation = 0;
      for (const played of cursorMap.values()) {
        conversation++;
        const left = rule.replies.length - played;
        if (left > 0) out.push(`${ruleName(rule)} (conversation ${conversation}): ${left} of ${rule.replies.length} left`);
      }
    });
    return out;
  }

  return { respond, problems, unplayed };
}

function matches(match: FakeScriptRule['match'], request: FakeRequest): boolean {
  if (typeof match === 'function') return match(request);
  const texts = [request.canonical.system, firstUserText(request)];
  return typeof match === 'string' ? texts.some((t) => t.includes(match)) : texts.some((t) => match.test(t));
}

function ruleName(rule: FakeScriptRule): string {
  if (rule.name) return rule.name;
  if (typeof rule.match === 'string') return JSON.stringify(rule.match);
  if (rule.match instanceof RegExp) return String(rule.match);
  return '(function rule)';
}
