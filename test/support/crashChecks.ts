// The invariants every crash scenario must satisfy, as a list of problems (empty = all held), so one
// failing kill point reports everything it broke and the other points still run.
//   - the run completes, and each task's status, summary and output equal the uninterrupted run's;
//   - every ledger entry is completed; no side effect happened twice; every completed call's effect
//     happened exactly once (an interrupted one at most once);
//   - per kill: a call completed before the kill is replayed, never re-executed (same result, no new
//     tool.started); a non-idempotent call cut off by the kill gets the "interrupted" error result,
//     is not re-executed, and the model is shown that result; an idempotent one is re-run; a model
//     call in flight is re-issued with exactly the same request.

import { isDeepStrictEqual } from 'node:util';
import { CRASH_TASKS, journalLinePrefix } from './crashMission.js';
import { describeKill, type LedgerEntry, type ScenarioResult, type StoredEvent } from './crashRun.js';
import type { FakeRequest } from './fakeModelServer.js';

export function resultText(entry: Pick<LedgerEntry, 'result'>): string {
  return (entry.result?.content ?? []).map((c) => c.text ?? '').join('');
}

export function isInterruptedResult(entry: Pick<LedgerEntry, 'result'>): boolean {
  return entry.result?.isError === true && /interrupted before it finished/.test(resultText(entry));
}

export function checkScenario(reference: ScenarioResult, s: ScenarioResult): string[] {
  const problems: string[] = [...s.harness];
  const last = s.processes[s.processes.length - 1];
  if (last?.code !== 0) problems.push(`the last process exited with ${last?.code ?? 'nothing'} (signal ${last?.signal}): ${last?.stderr.trim().slice(-400)}`);
  if (s.report?.status !== 'completed') problems.push(`run status ${s.report?.status ?? 'unknown'}, expected completed`);
  for (const task of CRASH_TASKS) {
    const want = reference.report?.tasks[task];
    const got = s.report?.tasks[task];
    const pick = (t: typeof want) => t && { status: t.status, summary: t.summary, output: t.output };
    if (!isDeepStrictEqual(pick(got), pick(want))) problems.push(`task ${task}: got ${JSON.stringify(pick(got))}, uninterrupted run gave ${JSON.stringify(pick(want))}`);
  }
  problems.push(...s.scriptProblems.map((p) => `model script: ${p}`), ...s.serverErrors.map((e) => `model server: ${e}`));
  problems.push(...checkLedger(s), ...checkEffects(reference, s), ...checkNoRepeatedModelCalls(reference, s));
  for (const [i, snapshot] of s.snapshots.entries()) problems.push(...checkKill(s, i).map((p) => `after kill ${i + 1} (${describeKill(snapshot.point)}): ${p}`));
  return problems;
}

/**
 * Without an interruption the resumed run must do exactly the uninterrupted run's model calls, plus
 * one re-issue per call killed in flight: a finished agent is not re-run, a completed commander does
 * not ask again, and the token and cost totals continue from the stored figures (no reset, no double
 * count). An interrupted write legitimately adds turns (the model checks, then retries).
 */
function checkNoRepeatedModelCalls(reference: ScenarioResult, s: ScenarioResult): string[] {
  if (s.ledger.some(isInterruptedResult)) return [];
  const problems: string[] = [];
  const reissued = s.snapshots.reduce((n, x) => n + x.reissue.length, 0);
  if (s.requests.length !== reference.requests.length + reissued) {
    problems.push(`${s.requests.length} model requests, expected ${reference.requests.length} + ${reissued} re-issued: ${s.requests.map(describeRequest).join('; ')}`);
  }
  if (!isDeepStrictEqual(s.report?.usage, reference.report?.usage)) {
    problems.push(`usage ${JSON.stringify(s.report?.usage)} differs from the uninterrupted run's ${JSON.stringify(reference.report?.usage)}`);
  }
  return problems;
}

function checkLedger(s: ScenarioResult): string[] {
  return s.ledger.filter((e) => e.status !== 'completed').map((e) => `ledger entry ${e.callId} (${e.apiName}) is still ${e.status} at the end`);
}

/** Side effects as the world saw them: ledger-service records and journal lines. */
function checkEffects(reference: ScenarioResult, s: ScenarioResult): string[] {
  const problems: string[] = [];
  const recordKeys = s.sink.records.map((r) => `${r.item}#${r.attempt}`);
  const journalLines = s.journal.split('\n').filter((l) => l !== '');
  for (const [what, keys] of [['ledger-service record', recordKeys], ['journal line', journalLines]] as const) {
    const seen = new Set<string>();
    for (const key of keys) {
      if (seen.has(key)) problems.push(`${what} ${JSON.stringify(key)} was made twice (one call executed twice)`);
      seen.add(key);
    }
  }
  // Per logical action (an item), as many effects as in the uninterrupted run: the model's check
  // policy never repeats a write that happened, so more means the runtime re-executed one.
  const perItem = (r: ScenarioResult) => {
    const counts: Record<string, number> = {};
    for (const rec of r.sink.records) counts[`record ${rec.item}`] = (counts[`record ${rec.item}`] ?? 0) + 1;
    for (const line of r.journal.split('\n')) {
      const item = CRASH_TASKS.find((t) => line.startsWith(journalLinePrefix(t)));
      if (item) counts[`journal ${item}`] = (counts[`journal ${item}`] ?? 0) + 1;
    }
    return counts;
  };
  if (!isDeepStrictEqual(perItem(s), perItem(reference))) problems.push(`effects per item ${JSON.stringify(perItem(s))}, uninterrupted run: ${JSON.stringify(perItem(reference))}`);

  for (const entry of s.ledger) {
    if (entry.status !== 'completed') continue;
    const input = entry.input as Record<string, unknown>;
    let count: number | undefined;
    if (entry.apiName === 'tools_record') count = recordKeys.filter((k) => k === `${String(input['item'])}#${String(input['attempt'])}`).length;
    if (entry.apiName === 'builtins_files_write') count = journalLines.filter((l) => `${l}\n` === input['content']).length;
    if (count === undefined) continue;
    const interrupted = isInterruptedResult(entry);
    if (interrupted ? count > 1 : count !== 1) {
      problems.push(`${entry.apiName} call ${entry.callId} (${interrupted ? 'interrupted' : 'completed'}) took effect ${count} times`);
    }
  }
  return problems;
}

function checkKill(s: ScenarioResult, index: number): string[] {
  const problems: string[] = [];
  const snapshot = s.snapshots[index]!;
  const later = s.events.filter((e) => e.id > snapshot.maxEventId);
  const laterRequests = s.requests.slice(snapshot.requestsBefore);
  const final = new Map(s.ledger.map((e) => [`${e.sessionId}/${e.callId}`, e]));
  const startedAgain = (e: LedgerEntry) => later.some((ev) => isToolStarted(ev, e));

  for (const before of snapshot.ledger) {
    const after = final.get(`${before.sessionId}/${before.callId}`);
    const name = `${before.apiName} call ${before.callId} of ${before.agent}[${before.task}]`;
    if (!after) {
      problems.push(`${name} vanished from the ledger`);
      continue;
    }
    if (before.status === 'completed') {
      if (!isDeepStrictEqual(after.result, before.result)) problems.push(`${name} was completed before the kill but its result changed`);
      if (startedAgain(before)) problems.push(`${name} was completed before the kill but was executed again`);
      continue;
    }
    if (!before.idempotent) {
      if (!isInterruptedResult(after)) problems.push(`${name} was cut off but its result is not the interrupted error: ${resultText(after).slice(0, 200)}`);
      if (startedAgain(before)) problems.push(`${name} is not idempotent but was executed again after the kill`);
      // The next request of that conversation (the first to carry the call) shows the model the error.
      const next = laterRequests.find((r) => carriesCall(r, before.callId));
      if (!next || !showsInterrupted(next, before.callId)) problems.push(`${name}: the next model request of its conversation does not show the interrupted result`);
    } else {
      if (!startedAgain(before)) problems.push(`${name} is idempotent (or resumable) but was not run again after the kill`);
      if (isInterruptedResult(after)) problems.push(`${name} is idempotent but got the interrupted error instead of being re-run`);
    }
  }

  if (snapshot.point.at !== 'requests-in-flight' && snapshot.reissue[0]) {
    // One task at a time: the call whose reply was lost is the very next request.
    const next = laterRequests[0];
    if (!next) problems.push('no model request was made after the kill');
    else if (!sameCall(next, snapshot.reissue[0])) {
      problems.push(`the call whose reply was lost was not re-issued as is: killed ${describeRequest(snapshot.reissue[0])}, next was ${describeRequest(next)}`);
    }
  } else {
    for (const request of snapshot.reissue) {
      if (!laterRequests.some((r) => sameCall(r, request))) problems.push(`the request in flight ${describeRequest(request)} was not re-issued as is`);
    }
  }
  if (snapshot.point.at === 'sink-request') {
    const killed = s.sink.requests.find((r) => r.n === sinkRequestNumber(s, index));
    const again = killed && s.sink.requests.filter((r) => r.n > killed.n && r.method === killed.method && r.url === killed.url && r.body === killed.body).length;
    if (!killed) problems.push('the killed ledger-service request is not in its log');
    else if (killed.method === 'GET' && again === 0) problems.push(`idempotent GET ${killed.url} was not re-run`);
    else if (killed.method === 'POST' && again !== 0) problems.push(`non-idempotent POST ${killed.body} was sent again by the runtime`);
  }
  return problems;
}

/** The ledger-service request number a sink kill stopped at (counting from that process's start). */
function sinkRequestNumber(s: ScenarioResult, index: number): number {
  const point = s.snapshots[index]!.point;
  if (point.at !== 'sink-request') return -1;
  return s.snapshots[index]!.sinkRequestsBefore + point.k;
}

function isToolStarted(event: StoredEvent, entry: LedgerEntry): boolean {
  return event.type === 'tool.started' && event.data['sessionId'] === entry.sessionId && event.data['callId'] === entry.callId;
}

function carriesCall(request: FakeRequest, callId: string): boolean {
  return request.canonical.messages.some((m) => m.parts.some((p) => p.type === 'tool_use' && p.id === callId));
}

function showsInterrupted(request: FakeRequest, callId: string): boolean {
  return request.canonical.messages.some((m) =>
    m.parts.some((p) => p.type === 'tool_result' && p.toolUseId === callId && p.isError && p.content.some((c) => c.type === 'text' && /interrupted/.test(c.text))),
  );
}

function sameCall(a: FakeRequest, b: FakeRequest): boolean {
  const view = (r: FakeRequest) => ({ model: r.canonical.model, system: r.canonical.system, messages: r.canonical.messages, tools: r.canonical.tools });
  return isDeepStrictEqual(view(a), view(b));
}

export function describeRequest(r: FakeRequest): string {
  const who = /^You are the (commander|worker agent) of task "([^"]+)"/.exec(r.canonical.system);
  const turn = r.canonical.messages.filter((m) => m.role === 'assistant').length + 1;
  return `${who ? `${who[1] === 'commander' ? 'commander' : 'worker'}[${who[2]}]` : 'unknown'} turn ${turn} (${r.canonical.messages.length} messages)`;
}
