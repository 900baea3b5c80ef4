// `squadron inspect <run-id>`: a stored run's task graph with statuses, summaries, outputs and usage;
// with --transcript, every session's messages and tool calls in order.

import type { Command } from 'commander';
import type { Part, RunInspection, SessionTranscript, StoredResultInspection } from '../../api/inspect.js';
import { spendText, totalTokens, type UsageTotals } from '../../api/usage.js';
import { CliError, type CliIo } from '../io.js';
import { inspectionJson } from '../../api/inspectJson.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { DB_OPTION_HELP, openStoreWithRun } from '../databaseAccess.js';
import { indent } from '../table.js';
import { groupDigits } from '../../core/digits.js';
import { forkPointText } from '../../api/forkText.js';

interface InspectFlags {
  db?: string;
  task?: string;
  item?: string;
  transcript?: boolean;
  result?: string;
  json?: boolean;
  follow?: boolean;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('inspect')
    .description("Show a run's tasks, results and usage; --transcript adds every conversation")
    .argument('<run-id>', 'the run (see `squadron runs`)')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--task <name>', 'only this task')
    .option('--item <index>', "with --task of an iterated task: only this item (its status, output and, with --transcript, its sessions)")
    .option('--transcript', "include every session's messages and tool calls")
    .option('--result <handle>', 'show a stored tool result whole (a res_… handle from a transcript)')
    .option('--follow', 'first print the live events until the run ends (as squadron logs -f), then the run')
    .option('--json', JSON_FLAG_HELP)
    .action(async (runId: string, flags: InspectFlags) => {
      const { inspectRun, inspectStoredResult } = await import('../../api/inspect.js');
      const { store } = await openStoreWithRun(io, flags.db, runId);
      try {
        if (flags.follow) {
          if (flags.json) throw new CliError('--follow prints lines as they come; for JSON use squadron logs -f --json, then inspect --json', 'usage');
          const { printEvents } = await import('../eventFollow.js');
          const stop = new AbortController();
          const onSignal = (): void => stop.abort();
          process.once('SIGINT', onSignal);
          try {
            await printEvents(io, store, runId, { follow: true, json: false, stop: stop.signal });
          } finally {
            process.off('SIGINT', onSignal);
          }
          io.stdout.write('\n');
        }
        if (flags.result !== undefined) {
          const stored = await inspectStoredResult(store, runId, flags.result);
          if (!stored) throw new CliError(`run ${runId} has no stored result ${flags.result} (handles look like res_ and 16 hex digits; see inspect --transcript)`, 'not_found');
          if (flags.json) writeJson(io, { handle: stored.handle, bytes: stored.bytes, sessions: stored.sessions, payload: stored.payload });
          else io.stdout.write(renderStoredResult(stored));
          return;
        }
        const opts: { task?: string; item?: number; transcript?: boolean } = { transcript: Boolean(flags.transcript) };
        if (flags.task) opts.task = flags.task;
        if (flags.item !== undefined) {
          if (!flags.task) throw new CliError('--item needs --task: the item of which task?', 'usage');
          if (!/^\d+$/.test(flags.item)) throw new CliError(`--item expects an item index (0, 1, …), not "${flags.item}"`, 'usage');
          opts.item = Number(flags.item);
        }
        const inspection = await inspectRun(store, runId, opts);
        if (!inspection) throw new CliError(`no run ${runId} in this database (see squadron runs)`, 'not_found');
        if (flags.task && inspection.tasks.length === 0) throw new CliError(`run ${runId} has no task "${flags.task}"`, 'not_found');
        const items = inspection.tasks[0]?.items;
        if (opts.item !== undefined && (items === undefined || items.list.length === 0)) {
          throw new CliError(items === undefined ? `task "${flags.task}" of run ${runId} has no items (it is not an iterated task, or has not started)` : `task "${flags.task}" has ${items.total} items (0–${items.total - 1}); there is no item ${opts.item}`, 'not_found');
        }
        if (flags.json) writeJson(io, inspectionJson(inspection));
        else io.stdout.write(renderInspection(inspection));
      } finally {
        await store.close();
      }
    });
}

function renderInspection(ins: RunInspection): string {
  const { run } = ins;
  const out: string[] = [];
  out.push(`run ${run.id} · mission ${run.mission} · ${run.status}`);
  out.push(`started ${run.startedAt}${run.finishedAt ? ` · finished ${run.finishedAt}` : ''} · ${usageText(ins.usage)}`);
  if (run.error) out.push(`error: ${run.error}`);
  if (run.parentRunId !== undefined && run.fork) out.push(`forked from ${forkPointText(run.parentRunId, run.fork)}${run.fork.changes.length > 0 ? ` · changed: ${run.fork.changes.join(', ')}` : ''}${run.fork.copied.length > 0 ? ` · copied: ${run.fork.copied.join(', ')}` : ''}`);
  if (ins.runner) out.push(`coordinated by ${runnerText(ins.runner)}`);
  for (const record of run.configChanges) out.push(`resumed with a changed config at ${record.at}: ${record.changes.join('; ')}`);
  for (const b of ins.control.budgets) out.push(`budget ${b.scope === 'mission' ? 'of the mission' : `of task ${b.scope}`}: ${spendText(b)}`);
  for (const e of ins.control.events) out.push(`${e.type}${e.task ? ` (${e.task})` : ''} at ${e.at}: ${e.message}`);
  for (const r of ins.requests) {
    const what = r.kind === 'approval' ? `approval of ${r.toolRef} ${JSON.stringify(r.payload)}` : `question from ${r.toolRef}: ${(r.payload as { question?: string }).question ?? ''}`;
    const decided = r.status === 'pending' ? 'waiting' : `${r.status} by ${r.decidedBy ?? '?'} at ${r.decidedAt ?? '?'}${r.reason ? ` (${r.reason})` : ''}`;
    const answer = r.answer !== undefined ? ` · answer ${JSON.stringify(r.answer)}` : '';
    out.push(`${r.id} ${what} (task ${r.task}, ${r.agent}, asked ${r.createdAt}): ${decided}${answer}`);
  }
  for (const task of ins.tasks) {
    out.push('');
    const deps = task.dependsOn.length > 0 ? ` ← ${task.dependsOn.join(', ')}` : '';
    const via = task.activatedBy ? ` (activated by ${task.activatedBy})` : '';
    const attempt = task.attempt > 1 ? ` (attempt ${task.attempt})` : '';
    const direct = task.direct ? ' · direct (its worker alone)' : '';
    out.push(`${MARK[task.status] ?? '■'} ${task.name}${direct} · ${task.status}${attempt}${deps}${via}${task.status === 'skipped' ? ' · not started (no route or send_to led to it)' : ''} · ${usageText(task.usage)}`);
    if (task.summary) out.push(indent(task.summary, '  '));
    if (task.items) out.push(...itemLines(task.items));
    if (task.output !== undefined) out.push(indent(`output: ${JSON.stringify(task.output, null, 2)}`, '  '));
    if (task.route) out.push(`  route: ${task.route}`);
    if (task.runner) out.push(`  ran on ${runnerText(task.runner)}`);
    if (task.error) out.push(`  error: ${task.error}`);
    for (const session of task.sessions ?? []) out.push(renderSession(session));
  }
  return `${out.join('\n')}\n`;
}

/** `wrk_… (pid 4242 on host-a)`, and how often the unit was taken over. */
function runnerText(r: NonNullable<RunInspection['runner']>): string {
  return `${r.id} (pid ${r.pid} on ${r.host})${r.claims > 1 ? ` · taken over: claimed ${r.claims} times` : ''}`;
}

const MARK: Readonly<Record<string, string>> = { skipped: '–' };

/** Counts, then each listed item: all of one asked for with --item, only the unfinished and failed ones otherwise. */
function itemLines(items: NonNullable<RunInspection['tasks'][number]['items']>): string[] {
  const out = [`  items: ${items.completed}/${items.total} ✓ ${items.failed} ✗`];
  const one = items.only !== undefined ? items.list[0] : undefined;
  const shown = one ? [one] : items.list.filter((i) => i.status !== 'completed').slice(0, 50);
  for (const item of shown) {
    out.push(`  [${item.index}] ${item.status}${item.attempt > 1 ? ` (attempt ${item.attempt})` : ''}${item.error ? `: ${item.error}` : ''}`);
    if (one && item.summary) out.push(indent(item.summary, '      '));
    if (one && item.output !== undefined) out.push(indent(`output: ${JSON.stringify(item.output, null, 2)}`, '      '));
    if (one && item.runner) out.push(`      ran on ${runnerText(item.runner)}`);
  }
  return out;
}

function renderSession(s: SessionTranscript): string {
  const attempt = s.task.includes('#') ? ` · failed attempt ${s.task.slice(s.task.indexOf('#') + 1)}` : '';
  const out: string[] = [`\n  ── ${s.agent} (${s.model}) · ${s.status}${attempt} · ${usageText(s.usage)} · ${s.id}`];
  out.push(indent(`[system] ${firstLines(s.systemPrompt, 3)}`, '    '));
  const calls = new Map(s.toolCalls.map((c) => [c.callId, c]));
  for (const message of s.messages) {
    for (const part of message.parts) out.push(indent(renderPart(message.role, part, calls), '    '));
    for (const view of s.contextViews) if (view.afterSeq === message.seq) out.push(indent(renderCut(view), '    '));
  }
  return out.join('\n');
}

function renderPart(role: string, part: Part, calls: Map<string, { status: string; toolRef: string; result?: { mocked?: true } }>): string {
  switch (part.type) {
    case 'text':
      return `[${role}] ${part.text}`;
    case 'thinking':
      if (part.redactedData) return '[thinking] (redacted)';
      // An OpenAI reasoning item may carry no summary: its reasoning is encrypted.
      return `[thinking] ${part.text === '' && part.reasoningItem ? '(encrypted)' : firstLines(part.text, 4)}`;
    case 'tool_use': {
      const ledger = calls.get(part.id);
      // A call a test answered (squadron test's mock_tool) never ran: the ledger says so.
      const status = ledger ? ` [${ledger.toolRef}: ${ledger.status}${ledger.result?.mocked ? ', mocked' : ''}]` : '';
      return `[call ${part.id}] ${part.name} ${JSON.stringify(part.input)}${status}`;
    }
    case 'tool_result':
      return `[result ${part.toolUseId}${part.isError ? ', error' : ''}] ${part.content.map((c) => (c.type === 'text' ? c.text : `(image ${c.mediaType})`)).join('\n')}`;
    case 'image':
      return `[image ${part.mediaType}]`;
  }
}

function renderStoredResult(r: StoredResultInspection): string {
  const { payload } = r;
  const readers = r.sessions.map((s) => `${s.task}/${s.agent}`).join(', ');
  const out = [`stored result ${r.handle} · ${payload.format} · ${groupDigits(r.bytes)} bytes · readable by ${readers}`, ''];
  out.push(payload.format === 'json' ? prettyJson(payload.text) : payload.text);
  for (const [i, image] of payload.images.entries()) out.push(`[image ${i + 1}: ${image.mediaType}, ${groupDigits(image.data.length)} base64 characters]`);
  if (payload.structured !== undefined) out.push('', `structured content: ${JSON.stringify(payload.structured, null, 2)}`);
  for (const resource of payload.resources ?? []) out.push(`[${resource.kind}${resource.uri ? ` ${resource.uri}` : ''}]`);
  return `${out.join('\n')}\n`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Where a request was cut: what the next requests sent instead of messages 1…keepFrom-1. */
function renderCut(v: SessionTranscript['contextViews'][number]): string {
  const what = v.kind === 'compaction' ? 'compacted' : 'pruned';
  const why = v.kind === 'compaction' ? ` (the request uncut would have held about ${groupDigits(v.inputTokens)} input tokens)` : '';
  const line = `── ${what} after message ${v.afterSeq}: messages 1–${v.keepFrom - 1} replaced by the head below${why}`;
  const head = v.head.map((p) => (p.type === 'text' ? p.text : `(${p.type})`)).join('\n');
  return `${line}\n${indent(`[head] ${firstLines(head, 12)}`, '  ')}`;
}

function usageText(u: UsageTotals): string {
  return `${groupDigits(totalTokens(u))} tokens · $${u.costUsd.toFixed(4)} · ${u.turns} turns`;
}

function firstLines(text: string, n: number): string {
  const lines = text.split('\n');
  return lines.length <= n ? text : `${lines.slice(0, n).join('\n')}\n… (${lines.length - n} more lines)`;
}
