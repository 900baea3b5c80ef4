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

/** `maxParallel` → `max_parallel`. */
export function snakeCase(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Keys whose values are user or model data, reproduced verbatim in every document: a task's `output`,
 * a tool call's `input`, a run's `inputs`, an MCP tool's `structured` content, a tool's `input_schema`.
 */
export const VERBATIM_KEYS: ReadonlySet<string> = new Set(['output', 'input', 'inputs', 'structured', 'input_schema']);

/**
 * A copy of `value` with every object key squadron chose in snake_case; the values of VERBATIM_KEYS
 * (user data: task outputs, tool inputs, JSON schemas) keep their own keys.
 */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const key = snakeCase(k);
      return [key, VERBATIM_KEYS.has(key) ? v : snakeKeys(v)];
    }),
  );
}

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
