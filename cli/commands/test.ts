// `squadron test [path]`: runs the `*.sqtest.hcl` tests of a config (beside it and under tests/)
// and prints a summary, a `--json` document or (also) a JUnit file. Exit 0 when every test passed,
// 1 when one failed, 2 for a config or test-file error (listed with positions, as validate does).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { TestReport, TestResult } from '../../api/index.js';
import { SquadronError } from '../../api/errors.js';
import { CliError, collect, EXIT, parseKeyValues, shownPath, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, snakeKeys, writeJson } from '../json.js';
import { junitXml } from '../junit.js';
import { configErrors } from '../project.js';

interface TestFlags {
  filter?: string;
  record?: boolean;
  json?: boolean;
  junit?: string;
  var: string[];
  keep?: string;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('test')
    .description('Run the *.sqtest.hcl tests of a config (replayed from cassettes, mocked tools, assertions on the stored run)')
    .argument('[path]', 'the config folder (its tests beside it and under tests/), or one test file', '.')
    .option('--filter <name>', 'only the runs whose name contains this text')
    .option('--record', 'run the replayed tests live once and write the cassettes they replay')
    .option('--json', JSON_FLAG_HELP)
    .option('--junit <file>', 'also write the results as JUnit XML to this file')
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .option('--keep <dir>', "keep each trial's database and workspace under this folder (to inspect them) instead of removing them")
    .action(async (path: string, flags: TestFlags) => {
      io.exitCode = await testCommand(io, path, flags);
    });
}

async function testCommand(io: CliIo, path: string, flags: TestFlags): Promise<number> {
  const { test } = await import('../../api/index.js');
  const json = Boolean(flags.json);
  let report: TestReport;
  try {
    report = await test({
      path: resolve(io.cwd, path),
      ...(flags.filter !== undefined ? { filter: flags.filter } : {}),
      record: Boolean(flags.record),
      vars: parseKeyValues(flags.var, '--var'),
      env: io.env,
      ...(flags.keep !== undefined ? { keepDir: keepDir(io, flags.keep) } : {}),
      ...(json ? {} : { onResult: (r: TestResult) => io.stdout.write(resultText(io, r)) }),
    });
  } catch (error) {
    if (error instanceof SquadronError && error.code === 'invalid_config') throw configErrors(io, error);
    throw error;
  }
  const shown = (p: string): string => shownPath(io.cwd, p);
  if (flags.junit !== undefined) {
    try {
      writeFileSync(resolve(io.cwd, flags.junit), junitXml(report, shown));
    } catch (error) {
      throw new CliError(`cannot write the JUnit file ${flags.junit}: ${(error as Error).message}`, 'usage');
    }
  }
  if (json) {
    writeJson(io, snakeKeys({
      configPath: shown(report.configPath),
      passed: report.passed,
      failed: report.failed,
      errors: report.errors,
      files: report.files.map((f) => ({ path: shown(f.path), tests: f.tests.map((t) => ({ ...t, file: shown(t.file), failures: t.failures.map((x) => ({ ...x, file: shown(x.file) })) })) })),
    }) as Record<string, unknown>);
  } else {
    io.stdout.write(summaryText(report));
  }
  return report.failed + report.errors === 0 ? EXIT.ok : EXIT.failure;
}

function resultText(io: CliIo, r: TestResult): string {
  const label = r.status === 'passed' ? 'PASS' : r.status === 'failed' ? 'FAIL' : 'ERROR';
  const trials = r.trials.length > 1 ? `, ${r.trials.filter((t) => t.passed).length}/${r.trials.length} trials passed (pass_at ${r.passAt})` : '';
  const lines = [`${label} ${shownPath(io.cwd, r.file)}:${r.line} ${r.name} (${r.mode}${trials}, ${(r.durationMs / 1000).toFixed(1)}s)`];
  for (const f of r.failures) {
    lines.push(`  ${shownPath(io.cwd, f.file)}:${f.line}:${f.column}: ${printable(f.message).replace(/\n/g, '\n  ')}`);
    const source = sourceLine(f.file, f.line);
    if (source !== undefined) lines.push(`  ${String(f.line).padStart(4)} | ${source}`);
  }
  for (const t of r.trials) if (t.db !== undefined && t.runId !== undefined) lines.push(`  kept: squadron inspect ${t.runId} --db ${shownPath(io.cwd, t.db)}`);
  for (const j of r.trials.flatMap((t) => t.judged)) lines.push(`  judge: ${JSON.stringify(j.question)} → ${j.pass ? 'yes' : 'no'}${j.reason ? ` (${printable(j.reason)})` : ''}`);
  return `${lines.join('\n')}\n`;
}

function summaryText(report: TestReport): string {
  const total = report.passed + report.failed + report.errors;
  if (total === 0) return 'no tests found (test files are *.sqtest.hcl beside the config and under tests/)\n';
  const parts = [`${report.passed} passed`, `${report.failed} failed`];
  if (report.errors > 0) parts.push(`${report.errors} errors`);
  return `\n${parts.join(', ')} (${total} test${total === 1 ? '' : 's'} in ${report.files.length} file${report.files.length === 1 ? '' : 's'})\n`;
}

/** Model and tool text (task errors, the judge's reason) without control characters a terminal would act on. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
}

/** The --keep folder, made if missing. */
function keepDir(io: CliIo, dir: string): string {
  const full = resolve(io.cwd, dir);
  try {
    mkdirSync(full, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot use --keep ${dir}: ${(error as Error).message}`, 'usage');
  }
  return full;
}

const sources = new Map<string, string[]>();

/** The test file's line, to show beside a failure (undefined when it cannot be read). */
function sourceLine(file: string, line: number): string | undefined {
  let lines = sources.get(file);
  if (!lines) {
    try {
      lines = readFileSync(file, 'utf8').split('\n');
    } catch {
      return undefined;
    }
    sources.set(file, lines);
  }
  return lines[line - 1]?.trimEnd();
}
