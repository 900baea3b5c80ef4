// `squadron fmt [--check] [path…]`: rewrites HCL files in the canonical layout (config/hcl/fmt.ts),
// finding files as validate does (a folder recursively, minus dot-folders, node_modules and
// .squadronignore) and reading them as the loader does (a FIFO or a binary file is a problem, not a
// hang). Prints each file it changed (or, with --check, would change); `-` formats standard input to
// standard output. A file with syntax errors is reported and left untouched. A reference written as a
// string (a REF004 warning) loses its quotes (config/unquoteRefs.ts).

import { closeSync, existsSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { capDiagnostics, renderDiagnostics } from '../../config/diagnostics.js';
import { discoverFiles, readHclFile } from '../../config/files.js';
import type { Diagnostic } from '../../config/hcl/diagnostic.js';
import { formatHcl } from '../../config/hcl/fmt.js';
import { unquoteReferences } from '../../config/unquoteRefs.js';
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
  const outcomes: FileOutcome[] = [];
  const problems: Diagnostic[] = [];
  const sources = new Map<string, string>();
  for (const given of paths) {
    if (!existsSync(resolve(io.cwd, given))) throw new CliError(`no such file or directory: ${given}`, 'not_found');
    const found = discoverFiles(resolve(io.cwd, given));
    problems.push(...found.diagnostics);
    for (const file of found.files) {
      const read = readHclFile(file);
      if ('problem' in read) {
        problems.push(read.problem);
        outcomes.push({ path: file, status: 'invalid' });
        continue;
      }
      const source = read.text;
      sources.set(file, source);
      const result = formatHcl(unquoteReferences(source, file), file);
      if (result.text === undefined) {
        problems.push(...capDiagnostics(result.diagnostics));
        outcomes.push({ path: file, status: 'invalid' });
        continue;
      }
      const changed = result.text !== source;
      if (changed && !flags.check) writeInPlace(file, result.text);
      const outcome: FileOutcome = { path: file, status: changed ? 'formatted' : 'unchanged' };
      if (changed && flags.diff) outcome.diff = unifiedDiff(source, result.text, shownPath(io.cwd, file));
      outcomes.push(outcome);
    }
  }
  const shown = (p: string): string => shownPath(io.cwd, p);
  const changed = outcomes.filter((o) => o.status === 'formatted');
  if (flags.json) {
    const files = outcomes.map((o) => ({ path: shown(o.path), status: o.status, ...(o.diff !== undefined ? { diff: o.diff } : {}) }));
    const diagnostics = problems.map((d) => ({ severity: d.severity, code: d.code, message: d.message, file: shown(d.file), line: d.line, column: d.column }));
    writeJson(io, { check: Boolean(flags.check), files, diagnostics });
  } else {
    if (problems.length > 0) {
      io.stderr.write(`${renderDiagnostics(problems, { cwd: io.cwd, color: useColor(io, 'stderr'), readSource: (f) => sources.get(f) })}\n\n`);
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
  const result = formatHcl(unquoteReferences(source, '<stdin>'), '<stdin>');
  if (result.text === undefined) {
    io.stderr.write(`${renderDiagnostics(capDiagnostics(result.diagnostics), { cwd: io.cwd, color: useColor(io, 'stderr'), readSource: () => source })}\n`);
    return EXIT.failure;
  }
  io.stdout.write(result.text);
  return EXIT.ok;
}

/**
 * Through a temporary file beside it, flushed to disk before the rename, so a crash, a power loss or
 * a full disk never leaves a half-written config (a failed write removes the temporary file and
 * leaves the config as it was); the mode is kept.
 */
function writeInPlace(path: string, text: string): void {
  const file = realpathSync(path); // a linked config is rewritten where it lives, the link kept
  const temp = `${file}.squadron-fmt-${process.pid}`;
  const fd = openSync(temp, 'wx');
  let renamed = false;
  try {
    try {
      writeFileSync(fd, text); // every byte, or a throw
      fchmodSync(fd, statSync(file).mode & 0o7777);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    renamed = true;
  } finally {
    if (!renamed) rmSync(temp, { force: true });
  }
}
