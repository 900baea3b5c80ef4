// The `--json` contract shared by every command: one document on stdout, snake_case keys, a
// `schema_version`, and the same flat error shape (`error` + `error_code`) for every failure, so a
// script reads any command's output the same way (see docs/concepts/cli.md).

import type { CliIo } from './io.js';
import { escapeJsonControls } from './terminalSafe.js';

/**
 * The version of every JSON document the CLI prints. Adding a field does not change it; renaming or
 * removing a field, or changing a field's type or meaning, does.
 */
export const SCHEMA_VERSION = 1;

/** Prints one JSON document on stdout, `schema_version` first. */
export function writeJson(io: CliIo, doc: Record<string, unknown>): void {
  io.stdout.write(jsonDocument(doc));
}

export function jsonDocument(doc: Record<string, unknown>): string {
  return `${escapeJsonControls(JSON.stringify({ schema_version: SCHEMA_VERSION, ...doc }, null, 2))}\n`;
}

export { snakeCase, snakeKeys, VERBATIM_KEYS } from '../api/jsonKeys.js';

/** The help of every command's `--json` flag; the error path (cli/program.ts) answers errors in JSON for a command that has it. */
export const JSON_FLAG_HELP = 'print one JSON document on stdout (see squadron docs cli)';

/**
 * Whether this command line asked for JSON: `--json`, or `--format json` / `--format=json` for the
 * commands that have `--format` (validate's older spelling). Words after `--` are arguments.
 */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  return args.some((a, i) => a === '--json' || a === '--format=json' || (a === '--format' && args[i + 1] === 'json'));
}
