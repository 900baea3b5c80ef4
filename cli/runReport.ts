// How `run` and `resume` print a finished run: a human summary (each task's status, summary and
// output) or, with --json, one documented JSON document on stdout. The exit code follows the status.

import type { BudgetReport, OperatorRequestRow, RunReport, RunStart, RunWatcher } from '../api/index.js';
import { BUDGET_KINDS, describeAmount, totalTokens } from '../api/usage.js';
import { ProgressView } from './progress.js';
import { EXIT, type CliIo } from './io.js';
import { jsonDocument } from './json.js';
import { indent } from './table.js';
import { groupDigits } from '../core/digits.js';
import { runReportJson } from '../api/runReportJson.js';

/** One line per waiting request, with the command that decides it. */
export function waitingLines(runId: string, requests: readonly OperatorRequestRow[], dbFlag = ''): string[] {
  return requests.map((r) => {
    const where = `task ${r.task}, ${r.agent}`;
    if (r.kind === 'approval') {
      return `  ${r.id}  ${r.toolRef} ${truncate(JSON.stringify(r.payload), 120)} (${where})
      squadron approve ${runId} --call ${r.id}${dbFlag}   or   squadron deny ${runId} --call ${r.id} --reason "…"${dbFlag}`;
    }
    const q = r.payload as { question?: string; choices?: string[] };
    const how = q.choices ? q.choices.map((c) => `--choice ${JSON.stringify(c)}`).join(' | ') : '"your answer"';
    return `  ${r.id}  ${q.question ?? '(question)'} (${where})
      squadron answer ${runId} --question ${r.id} ${how}${dbFlag}`;
  });
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** `mission: $0.8123 of $1 · 12,000 of 50,000 tokens` */
export function budgetLine(b: BudgetReport): string {
  const parts = BUDGET_KINDS.flatMap((kind) => {
    const limit = b.limits[kind];
    return limit === undefined ? [] : [`${describeAmount(kind, b.spent[kind] ?? 0)} of ${kind === 'dollars' ? `$${limit}` : describeAmount(kind, limit)}`];
  });
  return `budget ${b.scope === 'mission' ? 'of the mission' : `of task ${b.scope}`}: ${parts.join(' · ')}`;
}

/**
 * `resumeCommand` and `inspectCommand` are command lines that work from the current folder
 * (storeCommand); the resume hint printed is one that works: none for a completed run, the command for
 * an interrupted one, with --retry-failed for a failed one.
 */
export function printRunReport(io: CliIo, report: RunReport, json: boolean, resumeCommand: string, inspectCommand?: string): number {
  const code = report.storeFailed ? EXIT.failure : report.status === 'completed' ? EXIT.ok : report.status === 'interrupted' ? EXIT.interrupted : report.status === 'stopped' ? EXIT.stopped : report.status === 'waiting' ? EXIT.waiting : EXIT.failure;
  if (json) {
    io.stdout.write(jsonDocument(runReportJson(report)));
  } else {
    const out: string[] = [''];
    const tokens = groupDigits(totalTokens(report.usage));
    const cost = report.replayed ? '$0 (replayed)' : `$${report.usage.costUsd.toFixed(4)}`;
    out.push(`mission ${report.mission} ${report.status} · ${tokens} tokens · ${cost} · ${report.usage.turns} model turns`);
    if (report.error && (report.status === 'failed' || report.storeFailed)) out.push(`error: ${report.error}`);
    if (report.error && report.status === 'stopped') out.push(`stopped: ${report.error}`);
    for (const b of report.budgets ?? []) out.push(budgetLine(b));
    for (const [name, task] of Object.entries(report.tasks)) {
      out.push(`\n${MARK[task.status] ?? '·'} ${name} (${task.status}${task.status === 'skipped' && task.skipReason ? `: ${task.skipReason}` : ''})`);
      if (task.items) out.push(`    items: ${task.items.completed}/${task.items.total} ✓ ${task.items.failed} ✗`);
      if (task.summary) out.push(indent(task.summary, '    '));
      if (task.output !== undefined) out.push(indent(`output: ${JSON.stringify(task.output, null, 2)}`, '    '));
      if (task.error && task.status === 'failed') out.push(indent(`error: ${task.error}`, '    '));
    }
    out.push(`\nworkspace: ${report.workspaceDir}`);
    if (inspectCommand) out.push(`inspect with: ${inspectCommand}`);
    if (report.status === 'waiting' && report.waitingFor) {
      const dbFlag = resumeCommand.includes(' --db ') ? resumeCommand.slice(resumeCommand.indexOf(' --db ')) : '';
      out.push(`\nwaiting for the operator (${report.waitingFor.length}):`, ...waitingLines(report.runId, report.waitingFor, dbFlag));
    }
    const hint = resumeHint(report.status, resumeCommand);
    if (hint) out.push(hint);
    io.stdout.write(`${out.join('\n')}\n`);
  }
  return code;
}

function resumeHint(status: RunReport['status'], resumeCommand: string): string | undefined {
  switch (status) {
    case 'completed':
      return undefined;
    case 'interrupted':
      return `resume with: ${resumeCommand}`;
    case 'failed':
      return `to run the failed tasks again from fresh sessions: ${resumeCommand} --retry-failed`;
    case 'waiting':
      return `once decided, continue with: ${resumeCommand}`;
    case 'stopped':
      return `to continue with a higher limit: ${resumeCommand} --budget dollars=N (or tokens=N, duration=45m; <task>.dollars=N for a task's budget)`;
  }
}

const MARK: Record<string, string> = { waiting: '⏸', completed: '✓', failed: '✗', cancelled: '■', skipped: '–', running: '▶', pending: '·' };

/** Wires SIGINT to an abort signal: the first stops the run cleanly, the second exits at once. */
export function interruptOnSigint(io: CliIo): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    io.stderr.write('\nstopping the run cleanly (press Ctrl-C again to quit at once)…\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    },
  };
}

/**
 * Progress on stderr: redrawn in place on a terminal, never under --json (stdout holds the document).
 * The stream follows io.stderr, so the secret masking installed once a config is loaded (which may be
 * after this is built, as in resume) applies to progress too.
 */
export function progressFor(io: CliIo, json: boolean): (start: RunStart) => RunWatcher {
  const stream = new Proxy(io.stderr, {
    get(_target, prop) {
      const value: unknown = Reflect.get(io.stderr, prop, io.stderr);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(io.stderr) : value;
    },
  });
  const live = io.stderrIsTTY && !json;
  return (start) => new ProgressView(stream, live, start.tasks, start.states, start.spent);
}
