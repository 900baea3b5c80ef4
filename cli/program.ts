// The command tree of the `squadron` binary: builds it, and is the one error path of every command:
// each failure becomes one clear line on stderr, an exit code from the table in io.ts and, under
// --json, a JSON error document on stdout (stack trace only with --debug). Only the command
// being run is loaded; help, `help <cmd>` and unknown commands load them all. `squadron --version`
// alone is answered before the argument parser is loaded (editors and scripts probe it often).

import type { Command, CommanderError } from 'commander';
import { CliError, ERROR_CODES, EXIT, type CliIo, type ErrorCode } from './io.js';
import { jsonDocument, snakeKeys, wantsJson } from './json.js';
import { terminalSafeStream } from './terminalSafe.js';
import type { SquadronErrorCode } from '../api/errors.js';
import { commands, type CommandEntry } from './commands/index.js';

/** The commands whose modules this command line needs. */
export function commandsFor(argv: readonly string[]): readonly CommandEntry[] {
  // Global options take no value, so the first word that is not an option names the command.
  const word = argv.find((a) => !a.startsWith('-'));
  const named = word === undefined ? undefined : commands.find((c) => c.name === word);
  if (named !== undefined) return [named];
  if (word === undefined && argv.some((a) => a === '--version' || a === '-V')) return [];
  return commands;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  // Untrusted text (tool results, model answers, server names) is printed by many paths: one
  // sanitiser on the streams covers them all.
  io.stdout = terminalSafeStream(io.stdout, false);
  io.stderr = terminalSafeStream(io.stderr, true);
  // What commander prints for the version flag, without loading commander.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const commander = await import('commander');
  let program: Command | undefined;
  try {
    program = await buildProgram(commander.Command, argv, io);
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode ?? EXIT.ok;
  } catch (err) {
    const failure = describeFailure(err, commander.CommanderError);
    if (failure === undefined) return EXIT.ok;
    // Commander has already printed its own message (and the help, when no command was given).
    if (!(err instanceof commander.CommanderError)) io.stderr.write(`error: ${failure.message}\n`);
    if (failure.code === 'internal') {
      if (io.debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
      else io.stderr.write('(run with --debug for details)\n');
    }
    if (program !== undefined && wantsJson(argv) && declaresJson(program, argv)) {
      io.stdout.write(jsonDocument({ error: failure.message, error_code: failure.code, ...failure.details }));
    }
    return failure.exitCode;
  }
}

interface Failure {
  message: string;
  code: ErrorCode;
  exitCode: number;
  details: Record<string, unknown>;
}

/** What went wrong, as the error path reports it (undefined: help or the version was asked for). */
function describeFailure(err: unknown, Commander: typeof CommanderError): Failure | undefined {
  if (err instanceof Commander) {
    // Help asked for (or the version) is a success; help shown because no command was given is not.
    if (err.exitCode === 0) return undefined;
    return { message: err.message.replace(/^error: /, ''), code: 'usage', exitCode: EXIT.usage, details: {} };
  }
  if (err instanceof CliError) return { message: err.message, code: err.code, exitCode: err.exitCode, details: snakeKeys(err.details) as Record<string, unknown> };
  // The API speaks the same error codes (api/errors.ts); recognised by name so start-up loads no API.
  if (isSquadronError(err)) return { message: err.message, code: err.code, exitCode: ERROR_CODES[err.code], details: {} };
  if (isStoreError(err)) {
    // The database the user pointed at cannot be used (not a database, newer than this version, …).
    // Nothing was done (exit 2): a database that cannot be opened, is of a newer schema or is held by another process.
    const unusable = err.code === 'OPEN_FAILED' || err.code === 'CONNECT_FAILED' || err.code === 'DATABASE_BUSY' || err.code === 'MIGRATION_UNKNOWN';
    const code = unusable ? 'database_unusable' : err.code === 'STORE_FAILED' ? 'store_failed' : 'database_error';
    return { message: err.message, code, exitCode: ERROR_CODES[code], details: {} };
  }
  return { message: err instanceof Error ? err.message : String(err), code: 'internal', exitCode: ERROR_CODES.internal, details: {} };
}

/** Whether the command this command line runs has a `--json` flag (commands that print data do). */
function declaresJson(program: Command, argv: readonly string[]): boolean {
  // The command, or the subcommand of a group (`mcp status`), that the first words name.
  let command: Command | undefined = program;
  for (const word of argv.filter((a) => !a.startsWith('-'))) {
    const sub: Command | undefined = command.commands.find((c) => c.name() === word);
    if (sub === undefined) break;
    command = sub;
  }
  return command !== program && command.options.some((o) => o.long === '--json');
}

async function buildProgram(NewCommand: typeof Command, argv: readonly string[], io: CliIo): Promise<Command> {
  const modules = await Promise.all(commandsFor(argv).map((c) => c.load()));
  const program = new NewCommand('squadron')
    .description('Declarative multi-agent LLM missions written in HCL')
    .version(VERSION)
    .option('--debug', 'print stack traces for internal errors')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .showSuggestionAfterError(true);
  program.hook('preAction', (cmd) => {
    io.debug = Boolean(cmd.opts()['debug']);
  });
  for (const { register } of modules) register(program, io);
  // Errors come back to us from every command, a group's subcommands included (never process.exit).
  const override = (cmd: Command): void => {
    for (const sub of cmd.commands) {
      sub.exitOverride();
      override(sub);
    }
  };
  override(program);
  return program;
}


/** The package's version (a test keeps it equal to package.json's; reading the file here would load more at start-up). */
export const VERSION = '0.1.0';

/** api/SquadronError, recognised without importing the API at start-up. */
function isSquadronError(err: unknown): err is Error & { code: SquadronErrorCode } {
  return err instanceof Error && err.name === 'SquadronError' && typeof (err as { code?: unknown }).code === 'string' && String((err as unknown as { code: string }).code) in ERROR_CODES;
}

/** store/StoreError, recognised without importing the store at start-up. */
function isStoreError(err: unknown): err is Error & { code: string } {
  return err instanceof Error && err.name === 'StoreError' && typeof (err as { code?: unknown }).code === 'string';
}
