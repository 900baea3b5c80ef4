// The CLI's view of the outside world: output streams, whether stderr is a terminal, the working
// directory and environment. Commands take it explicitly (no globals) so tests and the main entry
// point share one code path.

import { isAbsolute, relative } from 'node:path';
import type { Command } from 'commander';
import type { SquadronErrorCode } from '../api/errors.js';
import { rewritingStream } from './rewritingStream.js';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** True when stderr is an interactive terminal: colour and live progress are allowed. */
  stderrIsTTY: boolean;
  /** True when stdout is an interactive terminal (formatted docs pages). */
  stdoutIsTTY: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Print stack traces for internal errors. */
  debug: boolean;
  /** Set by a command's action; main() returns it (0 when unset). */
  exitCode?: number;
}

/** Exit codes shared by every command: the one table, documented in docs/concepts/cli.md. */
export const EXIT = {
  ok: 0,
  /** The command did its work and the answer is "no": validate found errors, a mission failed, a run is held by another process or must be retried explicitly. */
  failure: 1,
  /** Nothing was done: bad usage (unknown flag, missing argument, bad value), an invalid config, an unknown mission, task, run or topic, no database. */
  usage: 2,
  /** A run stopped by its budget before a model call it could not afford; resumable with `resume --budget`. */
  stopped: 3,
  /** A run waiting for its operator (approvals, questions): decide with approve/deny/answer, then resume. */
  waiting: 4,
  interrupted: 130,
} as const;

/**
 * Why a command failed, as `error_code` in its JSON error document. Each code has one exit code.
 * Codes are only ever added (a script may switch on them).
 */
export const ERROR_CODES = {
  /** A flag, argument or value the command does not accept. */
  usage: EXIT.usage,
  /** The config has errors (listed as diagnostics). */
  invalid_config: EXIT.usage,
  /** No such mission, task, run, docs topic, or no database where runs were looked for. */
  not_found: EXIT.usage,
  /** The database cannot be opened (not a database, unreadable, of a newer schema, held locked by another process, a PostgreSQL server that refuses the connection). */
  database_unusable: EXIT.usage,
  /** The database opened but cannot be used as it is (a failed or edited migration, a damaged row). */
  database_error: EXIT.failure,
  /** The database failed under the command (full, an I/O error, a lost connection); a run it was executing stopped as interrupted, resumable once the cause is gone. */
  store_failed: EXIT.failure,
  /** The run cannot start or continue with what was given (a workspace that is a file, an unwritable cassette, a mission not in the config). */
  run_refused: EXIT.usage,
  /** Another live process is executing the run. */
  run_busy: EXIT.failure,
  /** The state of the run refuses the command as asked (e.g. a failed run resumed without saying to retry). */
  refused: EXIT.failure,
  /** A bug: an unexpected error (details with --debug). */
  internal: EXIT.failure,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

// Every code the programmatic API throws is one of the CLI's, with its exit code.
const API_CODES_ARE_CLI_CODES: Record<SquadronErrorCode, number> = ERROR_CODES;
void API_CODES_ARE_CLI_CODES;

/** A user-caused problem that ends a command with a message and an exit code, never a stack trace. */
export class CliError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: number;
  /**
   * `kind` is an error code (its exit code follows from the table) or, as older callers pass it, an
   * exit code (EXIT.usage → `usage`, anything else → `refused`). `details` are added to the JSON
   * error document (snake_case keys), e.g. the diagnostics of an invalid config.
   */
  constructor(
    message: string,
    kind: ErrorCode | number = 'usage',
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.code = typeof kind === 'string' ? kind : kind === EXIT.usage ? 'usage' : 'refused';
    this.exitCode = typeof kind === 'string' ? ERROR_CODES[kind] : kind;
  }
}

export type CommandRegistrar = (program: Command, io: CliIo) => void;

/** Collects repeatable `--flag value` options into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Parses repeated `key=value` flags; a malformed one is a usage error naming the flag. */
export function parseKeyValues(pairs: readonly string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`${flag} expects key=value, got "${pair}"`);
    const key = pair.slice(0, eq).trim();
    // Which of two values was meant is not ours to guess: the last one winning hid typos in scripts.
    // (The values are not repeated: a --var may be a secret.)
    if (Object.hasOwn(out, key)) throw new CliError(`${flag} ${key}=… is given twice; give each name once`);
    out[key] = pair.slice(eq + 1);
  }
  return out;
}

/**
 * A path as the user would type it here: relative when inside the current folder (the folder itself
 * is `.`), else absolute. The one rule for every path the CLI prints.
 */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** Colour on a terminal, unless NO_COLOR is set (https://no-color.org). */
export function useColor(io: CliIo, stream: 'stdout' | 'stderr'): boolean {
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  return tty && !io.env['NO_COLOR'];
}

/** A commander option parser for a whole number ≥ 1; anything else is a usage error naming the flag. */
export function positiveInt(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} expects a whole number ≥ 1, got "${value}"`);
    return n;
  };
}

/**
 * From here on, everything the command writes to stdout and stderr (its output, progress, the live
 * view, warnings, the error line main() prints) has each secret value replaced by its placeholder.
 * Installed once the config, and so the secrets, are known (loadProject), so no command can forget it.
 * Each write is masked as a whole: callers write whole lines or frames, never a value split in two.
 */
export function redactOutput(io: CliIo, mask: (text: string) => string): void {
  io.stdout = rewritingStream(io.stdout, mask);
  io.stderr = rewritingStream(io.stderr, mask);
}
