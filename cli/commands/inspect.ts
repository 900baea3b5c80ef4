// `squadron inspect <run-id>`: a stored run's task graph with statuses, summaries, outputs and usage;
// with --transcript, every session's messages and tool calls in order.

import type { Command } from 'commander';
import type { RunInspection, SessionTranscript } from '../../runtime/inspect.js';
import { spendText } from '../../runtime/budget/stored.js';
import type { Part } from '../../runtime/providers/types.js';
import { totalTokens, type UsageTotals } from '../../runtime/usage.js';
import { CliError, type CliIo } from '../io.js';
import { inspectionJson } from '../inspectJson.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { DB_OPTION_HELP, openStoreWithRun } from '../storeAccess.js';
import { indent } from '../table.js';

interface InspectFlags {
  db?: string;
  task?: string;
  transcript?: boolean;
  json?: boolean;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('inspect')
    .description("Show a run's tasks, results and usage; --transcript adds every conversation")
    .argument('<run-id>', 'the run (see `squadron runs`)')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--task <name>', 'only this task')
    .option('--transcript', "include every session's messages and tool calls")
    .option('--json', JSON_FLAG_HELP)
    .action(async (runId: string, flags: InspectFlags) => {
      const { inspectRun } = await import('../../runtime/inspect.js');
      const { store } = await openStoreWithRun(io, flags.db, runId);
      try {
        const opts: { task?: string; transcript?: boolean } = { transcript: Boolean(flags.transcript) };
        if (flags.task) opts.task = flags.task;
        const inspection = await inspectRun(store, runId, opts);
        if (!inspection) throw new CliError(`no run ${runId} in this database (see squadron runs)`, 'not_found');
        if (flags.task && inspection.tasks.length === 0) throw new CliError(`run ${runId} has no task "${flags.task}"`, 'not_found');
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
  for (const record of run.configChanges) out.push(`resumed with a changed config at ${record.at}: ${record.changes.join('; ')}`);
  for (const b of ins.control.budgets) out.push(`budget ${b.scope === 'mission' ? 'of the mission' : `of task ${b.scope}`}: ${spendText(b)}`);
  for (const e of ins.control.events) out.push(`${e.type}${e.task ? ` (${e.task})` : ''} at ${e.at}: ${e.message}`);
  for (const task of ins.tasks) {
    out.push('');
    const deps = task.dependsOn.length > 0 ? ` ← ${task.dependsOn.join(', ')}` : '';
    const via = task.activatedBy ? ` (activated by ${task.activatedBy})` : '';
    const attempt = task.attempt > 1 ? ` (attempt ${task.attempt})` : '';
    out.push(`${MARK[task.status] ?? '■'} ${task.name} · ${task.status}${attempt}${deps}${via}${task.status === 'skipped' ? ' · not started (no route or send_to led to it)' : ''} · ${usageText(task.usage)}`);
    if (task.summary) out.push(indent(task.summary, '  '));
    if (task.output !== undefined) out.push(indent(`output: ${JSON.stringify(task.output, null, 2)}`, '  '));
    if (task.route) out.push(`  route: ${task.route}`);
    if (task.error) out.push(`  error: ${task.error}`);
    for (const session of task.sessions ?? []) out.push(renderSession(session));
  }
  return `${out.join('\n')}\n`;
}

const MARK: Readonly<Record<string, string>> = { skipped: '–' };

function renderSession(s: SessionTranscript): string {
  const attempt = s.task.includes('#') ? ` · failed attempt ${s.task.slice(s.task.indexOf('#') + 1)}` : '';
  const out: string[] = [`\n  ── ${s.agent} (${s.model}) · ${s.status}${attempt} · ${usageText(s.usage)} · ${s.id}`];
  out.push(indent(`[system] ${firstLines(s.systemPrompt, 3)}`, '    '));
  const calls = new Map(s.toolCalls.map((c) => [c.callId, c]));
  for (const message of s.messages) {
    for (const part of message.parts) out.push(indent(renderPart(message.role, part, calls), '    '));
  }
  return out.join('\n');
}

function renderPart(role: string, part: Part, calls: Map<string, { status: string; toolRef: string }>): string {
  switch (part.type) {
    case 'text':
      return `[${role}] ${part.text}`;
    case 'thinking':
      return `[thinking] ${part.redactedData ? '(redacted)' : firstLines(part.text, 4)}`;
    case 'tool_use': {
      const ledger = calls.get(part.id);
      const status = ledger ? ` [${ledger.toolRef}: ${ledger.status}]` : '';
      return `[call ${part.id}] ${part.name} ${JSON.stringify(part.input)}${status}`;
    }
    case 'tool_result':
      return `[result ${part.toolUseId}${part.isError ? ', error' : ''}] ${part.content.map((c) => (c.type === 'text' ? c.text : `(image ${c.mediaType})`)).join('\n')}`;
    case 'image':
      return `[image ${part.mediaType}]`;
  }
}

function usageText(u: UsageTotals): string {
  return `${totalTokens(u).toLocaleString('en-US')} tokens · $${u.costUsd.toFixed(4)} · ${u.turns} turns`;
}

function firstLines(text: string, n: number): string {
  const lines = text.split('\n');
  return lines.length <= n ? text : `${lines.slice(0, n).join('\n')}\n… (${lines.length - n} more lines)`;
}
