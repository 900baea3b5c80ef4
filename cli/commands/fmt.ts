// `squadron fmt [--check] [path…]`: rewrites HCL files in the canonical layout (api/fmt.ts does the
// work: which files, how they are read, formatted and rewritten). Prints each file it changed (or,
// with --check, would change); `-` formats standard input to standard output. A file with syntax
// errors is reported and left untouched.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { renderDiagnostics } from '../../api/diagnostics.js';
import { formatFiles, formatSource } from '../../api/fmt.js';
import { CliError, EXIT, shownPath, useColor, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { unifiedDiff } from '../unifiedDiff.js';

interface FmtFlags {
  check?: boolean;
  diff?: boolean;
  json?: boolean;
}

interface FileOutcome {
  path: string;
  status: 'formatted' | 'unchanged' | 'invalid';
  /** With --diff: the unified diff of a file that changes. */
  diff?: string;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('fmt')
    .description('Rewrite HCL files in the canonical layout (aligned =, two-space indentation)')
    .argument('[paths...]', '.hcl files or directories (default: the current directory); - reads standard input')
    .option('--check', 'change nothing; list the files that are not formatted and exit 1 if there are any')
    .option('--diff', 'print how each file changes (a unified diff); with --check, change nothing')
    .option('--json', JSON_FLAG_HELP)
    .action(async (paths: string[], flags: FmtFlags) => {
      io.exitCode = await fmt(io, paths.length > 0 ? paths : ['.'], flags);
    });
}

async function fmt(io: CliIo, paths: readonly string[], flags: FmtFlags): Promise<number> {
  if (paths.includes('-')) return fmtStdin(io);
  for (const given of paths) if (!existsSync(resolve(io.cwd, given))) throw new CliError(`no such file or directory: ${given}`, 'not_found');
  const report = formatFiles(paths.map((p) => resolve(io.cwd, p)), { write: !flags.check, keepText: Boolean(flags.diff) });
  const problems = report.diagnostics;
  const outcomes: FileOutcome[] = report.files.map((f) => ({
    path: f.path,
    status: f.status,
    ...(f.before !== undefined && f.after !== undefined ? { diff: unifiedDiff(f.before, f.after, shownPath(io.cwd, f.path)) } : {}),
  }));
  const shown = (p: string): string => shownPath(io.cwd, p);
  const changed = outcomes.filter((o) => o.status === 'formatted');
  if (flags.json) {
    const files = outcomes.map((o) => ({ path: shown(o.path), status: o.status, ...(o.diff !== undefined ? { diff: o.diff } : {}) }));
    const diagnostics = problems.map((d) => ({ severity: d.severity, code: d.code, message: d.message, file: shown(d.file), line: d.line, column: d.column }));
    writeJson(io, { check: Boolean(flags.check), files, diagnostics });
  } else {
    if (problems.length > 0) {
      io.stderr.write(`${renderDiagnostics(problems, { cwd: io.cwd, color: useColor(io, 'stderr'), readSource: (f) => report.sources.get(f) })}\n\n`);
    }
    for (const o of changed) io.stdout.write(o.diff ?? `${shown(o.path)}\n`);
    if (flags.check && changed.length > 0) io.stderr.write(`${changed.length} file${changed.length === 1 ? ' is' : 's are'} not formatted; run squadron fmt to fix\n`);
  }
  const failed = problems.some((d) => d.severity === 'error') || (flags.check === true && changed.length > 0);
  return failed ? EXIT.failure : EXIT.ok;
}

async function fmtStdin(io: CliIo): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const source = Buffer.concat(chunks).toString('utf8');
  const result = formatSource(source, '<stdin>');
  if (result.text === undefined) {
    io.stderr.write(`${renderDiagnostics(result.diagnostics, { cwd: io.cwd, color: useColor(io, 'stderr'), readSource: () => source })}\n`);
    return EXIT.failure;
  }
  io.stdout.write(result.text);
  return EXIT.ok;
}
