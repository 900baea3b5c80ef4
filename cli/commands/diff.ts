// `squadron diff <run-a> <run-b>`: two stored runs (a fork and its parent, say) task by task: status,
// output, route, tools called, turns, tokens and cost side by side, with the tasks that differ marked.

import type { Command } from 'commander';
import type { RunDiff, TaskSide } from '../../api/index.js';
import { type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { DB_OPTION_HELP, findRunDatabase } from '../databaseAccess.js';
import { table } from '../table.js';
import { groupDigits } from '../../core/digits.js';

export function register(program: Command, io: CliIo): void {
  program
    .command('diff')
    .description('Compare two stored runs task by task (output, status, route, tools, turns, tokens, cost)')
    .argument('<run-a>', 'a run (see `squadron runs`)')
    .argument('<run-b>', 'another run of the same database')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .action(async (a: string, b: string, flags: { db?: string; json?: boolean }) => {
      const { diff } = await import('../../api/index.js');
      const db = await findRunDatabase(io, flags.db, a);
      const result = await diff({ db, a, b });
      if (flags.json) writeJson(io, diffJson(result));
      else io.stdout.write(renderDiff(result));
    });
}

function renderDiff(d: RunDiff): string {
  const out: string[] = [`a: ${d.a.id} (${d.a.status})${d.a.parentRunId ? ` forked from ${d.a.parentRunId}` : ''}`, `b: ${d.b.id} (${d.b.status})${d.b.parentRunId ? ` forked from ${d.b.parentRunId}` : ''}`, ''];
  const rows: string[][] = [];
  for (const t of d.tasks) {
    rows.push([`${t.differs ? '≠' : '='} ${t.task}`, 'a', ...cells(t.a)]);
    rows.push(['', 'b', ...cells(t.b)]);
  }
  out.push(table(['TASK', 'RUN', 'STATUS', 'ROUTE', 'TOOLS', 'TURNS', 'TOKENS', 'COST', 'OUTPUT'], rows).trimEnd());
  const changed = d.tasks.filter((t) => t.differs).map((t) => t.task);
  out.push('', changed.length === 0 ? 'no task differs' : `differ: ${changed.join(', ')}`);
  return `${out.join('\n')}\n`;
}

function cells(s: TaskSide | undefined): string[] {
  if (s === undefined) return ['-', '-', '-', '-', '-', '-', '-'];
  const output = s.output !== undefined ? JSON.stringify(s.output) : (s.summary ?? '');
  return [
    `${s.status}${s.copied ? ' (copied)' : ''}`,
    s.route ?? '-',
    s.tools.length > 0 ? s.tools.join(' ') : '-',
    String(s.turns),
    groupDigits(s.tokens),
    `$${s.costUsd.toFixed(4)}`,
    output.length > 60 ? `${output.slice(0, 59)}…` : output,
  ];
}

/** The JSON contract: snake_case keys, outputs verbatim. */
function diffJson(d: RunDiff): Record<string, unknown> {
  const run = (r: RunDiff['a']) => ({ id: r.id, status: r.status, ...(r.parentRunId ? { parent_run_id: r.parentRunId } : {}) });
  const side = (s: TaskSide | undefined) =>
    s === undefined
      ? null
      : { status: s.status, copied: s.copied, route: s.route ?? null, tools: s.tools, turns: s.turns, tokens: s.tokens, cost_usd: Number(s.costUsd.toFixed(6)), output: s.output ?? null, summary: s.summary ?? null };
  return { a: run(d.a), b: run(d.b), tasks: d.tasks.map((t) => ({ task: t.task, differs: t.differs, a: side(t.a), b: side(t.b) })) };
}
