// The crash test's mission and its scripted models. Five tasks: alpha (ledger service: POST a record,
// GET the count) and beta (workspace journal: append a line, read the file) are independent; gamma
// depends on both, records again, answers a follow-up question, submits structured output and routes
// to delta (journal again, through progressive discovery: its worker loads each tool's schema with
// get_tool_schema first); epsilon is a route never taken (skipped).
//
// Every reply is a pure function of the conversation in the request, so a request re-issued after a
// crash gets the same reply. Commanders follow a fixed turn plan (they never see an interruption:
// call_agent resumes its agent). Workers follow a policy: write, then check; after a check, answer if
// the record is there, else write again (attempt n+1). A write whose result is "interrupted" is
// therefore checked before being repeated, the way the runtime's message asks a model to, and every
// run converges to the same summaries whatever the crash did.

import type { FakeReply, FakeRequest, FakeToolCall } from './fakeTypes.js';
import { LOCAL_HTTP } from './e2eProject.js';
import type { Message, Part } from '../../runtime/providers/types.js';

export const CRASH_TASKS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'] as const;
export const JOURNAL = 'journal.txt';

/** `maxParallel` 1 (default) makes the order of requests and events a total order. */
export function crashMissionHcl(modelUrl: string, sinkUrl: string, maxParallel = 1): string {
  return `
${LOCAL_HTTP}model "fake" {
  provider = "anthropic"
  base_url = "${modelUrl}"
  api_key  = "test-key-123"
}

tool "record" {
  implements  = builtins.http.post
  description = "Add a record to the ledger service. Not idempotent: every call adds one record."
  inputs = {
    item    = string("What to record", true)
    attempt = integer("1 for the first try, 2 for a retry, …", true)
  }
  url  = "${sinkUrl}/record"
  body = { item = inputs.item, attempt = inputs.attempt }
}

mission "crashproof" {
  max_parallel = ${maxParallel}
  commander { model = models.fake.claude_haiku_4_5 }

  task "alpha" {
    objective = "Record alpha in the ledger service and confirm how many records of it exist."
    tools     = [tools.record, builtins.http.get]
  }

  task "beta" {
    objective = "Append a beta entry to ${JOURNAL} and confirm it is there."
    tools     = [builtins.files.write, builtins.files.read]
  }

  task "gamma" {
    objective  = "Record gamma in the ledger service once alpha and beta are done; report the count and choose what comes next."
    depends_on = [tasks.alpha, tasks.beta]
    tools      = [tools.record, builtins.http.get]
    output = {
      item  = string("The recorded item", true)
      count = integer("How many records of it exist", true)
    }
    router {
      route {
        target    = tasks.delta
        condition = "the record exists"
      }
      route {
        target    = tasks.epsilon
        condition = "the record is missing"
      }
    }
  }

  task "delta" {
    objective = "Append a delta entry to ${JOURNAL} and confirm it is there."
    tools     = [builtins.files.write, builtins.files.read]
    discovery = true
  }

  task "epsilon" {
    objective = "Explain why the gamma record is missing."
    tools     = [builtins.http.get]
  }
}
`;
}

/** How a worker writes its item and checks that the write happened. */
interface WorkPlan {
  item: string;
  writeTool: string;
  checkTool: string;
  write(attempt: number): unknown;
  check(n: number): unknown;
  /** How many writes of the item the check result shows. */
  count(result: ToolOutcome): number;
}

interface ToolOutcome {
  name: string;
  input: unknown;
  text: string;
  isError: boolean;
}

function sinkPlan(item: string, sinkUrl: string): WorkPlan {
  return {
    item,
    writeTool: 'tools_record',
    checkTool: 'builtins_http_get',
    write: (attempt) => ({ item, attempt }),
    check: (n) => ({ url: `${sinkUrl}/count?item=${item}&check=${n}` }),
    count: (r) => Number(new RegExp(`${item}=(\\d+)`).exec(r.text)?.[1] ?? 0),
  };
}

function journalPlan(item: string): WorkPlan {
  return {
    item,
    writeTool: 'builtins_files_write',
    checkTool: 'builtins_files_read',
    write: (attempt) => ({ path: JOURNAL, content: `${journalLinePrefix(item)} (attempt ${attempt})\n`, append: true }),
    check: () => ({ path: JOURNAL }),
    count: (r) => (r.isError ? 0 : r.text.split('\n').filter((l) => l.startsWith(journalLinePrefix(item))).length),
  };
}

export function journalLinePrefix(item: string): string {
  return `${item} entry`;
}

export interface CrashScript {
  respond: (request: FakeRequest) => FakeReply;
  /** Requests the script could not answer (answered with a 400). */
  readonly problems: string[];
}

export function crashScript(sinkUrl: string): CrashScript {
  const problems: string[] = [];
  const workers: Record<string, WorkPlan> = {
    alpha: sinkPlan('alpha', sinkUrl),
    beta: journalPlan('beta'),
    gamma: sinkPlan('gamma', sinkUrl),
    delta: journalPlan('delta'),
  };
  const commanders: Record<string, (request: FakeRequest, turn: number) => FakeReply | undefined> = {
    alpha: simpleCommander('alpha', 'Record "alpha" in the ledger service, then confirm how many records of it exist.'),
    beta: simpleCommander('beta', `Append a beta entry to ${JOURNAL}, then confirm it is there.`),
    gamma: gammaCommander,
    delta: (request, turn) => {
      if (turn === 1) return callAgent(request, turn, `Append a delta entry to ${JOURNAL}, then confirm it is there.`);
      if (turn === 2) return taskComplete(request, turn, `delta: ${lastAnswer(request)} | upstream: ${upstreamSection(request)}`);
      return undefined;
    },
  };

  return {
    problems,
    respond(request) {
      const system = request.canonical.system;
      const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length + 1;
      const role = /^You are the (commander|worker agent) of task "([^"]+)"/.exec(system);
      const reply =
        role?.[1] === 'commander'
          ? commanders[role[2]!]?.(request, turn)
          : role?.[1] === 'worker agent' && workers[role[2]!]
            ? workerReply(workers[role[2]!]!, request, turn)
            : undefined;
      if (reply) return reply;
      const message = `request ${request.n}: no scripted reply (${role ? `${role[1]} of ${role[2]}` : 'unknown agent'}, turn ${turn})`;
      problems.push(message);
      return { status: 400, errorMessage: message };
    },
  };
}

function simpleCommander(task: string, instruction: string): (request: FakeRequest, turn: number) => FakeReply | undefined {
  return (request, turn) => {
    if (turn === 1) return callAgent(request, turn, instruction);
    if (turn === 2) return taskComplete(request, turn, `${task}: ${lastAnswer(request)}`);
    return undefined;
  };
}

function gammaCommander(request: FakeRequest, turn: number): FakeReply | undefined {
  if (turn === 1) return callAgent(request, turn, 'Record "gamma" in the ledger service, then confirm how many records of it exist.');
  if (turn === 2) return calls(request, turn, [{ name: 'ask_agent', input: { agent_id: 'worker', question: 'How many records of gamma exist now?' } }]);
  if (turn === 3) {
    const answer = lastAnswer(request);
    const count = Number(/(\d+) record/.exec(answer)?.[1] ?? -1);
    return calls(request, turn, [
      { name: 'submit_output', input: { output: { item: 'gamma', count } } },
      { name: 'task_complete', input: { summary: `gamma: ${answer}`, route: count >= 1 ? 'delta' : 'epsilon' } },
    ]);
  }
  return undefined;
}

function workerReply(plan: WorkPlan, request: FakeRequest, turn: number): FakeReply {
  const messages = request.canonical.messages;
  const instructionAt = findLastIndex(messages, (m) => m.role === 'user' && !m.parts.some((p) => p.type === 'tool_result'));
  const instruction = textOf(messages[instructionAt]?.parts ?? []);
  if (instruction.includes('Follow-up question')) {
    const lastCheck = outcomes(messages).filter((o) => o.name === plan.checkTool).pop();
    return { text: `To your question: ${answerText(plan, lastCheck ? plan.count(lastCheck) : 0)}` };
  }
  const steps = outcomes(messages.slice(instructionAt + 1)).filter((s) => s.name === plan.writeTool || s.name === plan.checkTool);
  const last = steps[steps.length - 1];
  const writes = steps.filter((s) => s.name === plan.writeTool).length;
  const checks = steps.filter((s) => s.name === plan.checkTool).length;
  let next: { name: string; input: unknown };
  if (!last) next = { name: plan.writeTool, input: plan.write(1) };
  else if (last.name === plan.writeTool) next = { name: plan.checkTool, input: plan.check(checks + 1) };
  else {
    const found = plan.count(last);
    if (found >= 1) return { text: answerText(plan, found) };
    next = { name: plan.writeTool, input: plan.write(writes + 1) };
  }
  // Under progressive discovery, load a tool's schema before its first use (the tool list in the
  // request says what is loaded, so this too is a function of the conversation).
  const visible = new Set(request.canonical.tools.map((t) => t.name));
  if (visible.has('get_tool_schema') && !visible.has(next.name)) next = { name: 'get_tool_schema', input: { name: next.name } };
  return calls(request, turn, [next]);
}

function answerText(plan: WorkPlan, count: number): string {
  return `${count} record(s) of ${plan.item} exist.`;
}

/** Tool calls with their results, in conversation order. */
function outcomes(messages: readonly Message[]): ToolOutcome[] {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const m of messages) {
    for (const p of m.parts) if (p.type === 'tool_result') results.set(p.toolUseId, { text: textOf(p.content as Part[]), isError: p.isError === true });
  }
  const out: ToolOutcome[] = [];
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type !== 'tool_use') continue;
      const result = results.get(p.id);
      if (result) out.push({ name: p.name, input: p.input, ...result });
    }
  }
  return out;
}

/** Tool call ids are a function of the conversation, so a re-issued request gets the same ids. */
function calls(request: FakeRequest, turn: number, list: { name: string; input: unknown }[]): FakeReply {
  const who = /^You are the (commander|worker agent) of task "([^"]+)"/.exec(request.canonical.system);
  const prefix = `toolu_${who?.[2] ?? 'x'}_${who?.[1] === 'commander' ? 'c' : 'w'}_${turn}`;
  const toolCalls: FakeToolCall[] = list.map((c, i) => ({ name: c.name, input: c.input, id: `${prefix}_${i}` }));
  return { toolCalls };
}

function callAgent(request: FakeRequest, turn: number, task: string): FakeReply {
  return calls(request, turn, [{ name: 'call_agent', input: { name: 'worker', task } }]);
}

function taskComplete(request: FakeRequest, turn: number, summary: string): FakeReply {
  return calls(request, turn, [{ name: 'task_complete', input: { summary } }]);
}

/** The agent's answer carried by the newest call_agent/ask_agent result. */
function lastAnswer(request: FakeRequest): string {
  const last = outcomes(request.canonical.messages).pop();
  if (!last) return '(no answer)';
  try {
    const parsed = JSON.parse(last.text) as { answer?: unknown; error?: unknown };
    return typeof parsed.answer === 'string' ? parsed.answer : `(failed: ${String(parsed.error)})`;
  } catch {
    return `(unreadable: ${last.text})`;
  }
}

/** The commander prompt's "Completed upstream tasks" section, on one line. */
function upstreamSection(request: FakeRequest): string {
  const match = /## Completed upstream tasks\n([\s\S]*?)\n## /.exec(request.canonical.system);
  return (match?.[1] ?? '(none)').trim().replace(/\s*\n\s*/g, ' / ');
}

function textOf(parts: readonly Part[]): string {
  return parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
