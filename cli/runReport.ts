// How `run` and `resume` print a finished run: a human summary (each task's status, summary and
// output) or, with --json, one documented JSON document on stdout. The exit code follows the status.

import type { MissionGraph } from '../config/graph.js';
import type { RunEnvironment, RunReport } from '../runtime/run.js';
import { totalTokens } from '../runtime/usage.js';
import { EXIT, type CliIo } from './io.js';
import { indent } from './table.js';

export function runReportJson(report: RunReport): unknown {
  const tasks: Record<string, unknown> = {};
  for (const [name, task] of Object.entries(report.tasks)) {
    tasks[name] = {
      status: task.status,
      summary: task.summary ?? null,
      output: task.output ?? null,
      ...(task.error ? { error: task.error } : {}),
      ...(task.skipReason ? { skip_reason: task.skipReason } : {}),
    };
  }
  return {
    run_id: report.runId,
    mission: report.mission,
    status: report.status,
    ...(report.error ? { error: report.error } : {}),
    tasks,
    usage: {
      input_tokens: report.usage.inputTokens,
      output_tokens: report.usage.outputTokens,
      cache_read_tokens: report.usage.cacheReadTokens,
      cache_write_tokens: report.usage.cacheWriteTokens,
      total_tokens: totalTokens(report.usage),
      cost_usd: Number(report.usage.costUsd.toFixed(6)),
      model_turns: report.usage.turns,
    },
    workspace: report.workspaceDir,
  };
}

export function printRunReport(io: CliIo, report: RunReport, json: boolean, resumeHint: string): number {
  const code = report.status === 'completed' ? EXIT.ok : report.status === 'interrupted' ? EXIT.interrupted : EXIT.failure;
  if (json) {
    io.stdout.write(`${JSON.stringify(runReportJson(report), null, 2)}\n`);
  } else {
    const out: string[] = [''];
    const tokens = totalTokens(report.usage).toLocaleString('en-US');
    out.push(`mission ${report.mission} ${report.status} · ${tokens} tokens · $${report.usage.costUsd.toFixed(4)} · ${report.usage.turns} model turns`);
    if (report.error && report.status === 'failed') out.push(`error: ${report.error}`);
    for (const [name, task] of Object.entries(report.tasks)) {
      out.push(`\n${MARK[task.status] ?? '·'} ${name} (${task.status}${task.status === 'skipped' && task.skipReason ? `: ${task.skipReason}` : ''})`);
      if (task.summary) out.push(indent(task.summary, '    '));
      if (task.output !== undefined) out.push(indent(`output: ${JSON.stringify(task.output, null, 2)}`, '    '));
      if (task.error && task.status === 'failed') out.push(indent(`error: ${task.error}`, '    '));
    }
    out.push(`\nworkspace: ${report.workspaceDir}`);
    if (report.status !== 'completed') out.push(`resume with: ${resumeHint}`);
    io.stdout.write(`${out.join('\n')}\n`);
  }
  return code;
}

const MARK: Record<string, string> = { completed: '✓', failed: '✗', cancelled: '■', skipped: '–', running: '▶', pending: '·' };

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

/** What `run` and `resume` hand the runtime: the project, database, progress stream and interrupt. */
export function runEnvironment(
  io: CliIo,
  project: { graph: MissionGraph; path: string },
  dbPath: string,
  interrupt: AbortSignal,
  json: boolean,
): RunEnvironment {
  return {
    graph: project.graph,
    configPath: project.path,
    dbPath,
    progress: { stream: io.stderr, live: io.stderrIsTTY && !json },
    interrupt,
    ...runTuning(io.env),
  };
}

/**
 * Tuning knobs read from the environment by `run` and `resume`:
 * SQUADRON_RETRY_BASE_DELAY_MS sets the base of the model-call retry backoff (default 2000).
 */
function runTuning(env: NodeJS.ProcessEnv): { retryBaseDelayMs?: number } {
  const raw = env['SQUADRON_RETRY_BASE_DELAY_MS'];
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? { retryBaseDelayMs: value } : {};
}
