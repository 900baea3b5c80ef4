// The command tree of the `squadron` binary: builds it, maps usage errors to exit code 2 and
// turns unexpected exceptions into one clear line (stack trace only with --debug). Only the command
// being run is loaded; help, `help <cmd>` and unknown commands load them all.

import { Command, CommanderError } from 'commander';
import { CliError, EXIT, type CliIo } from './io.js';
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
  try {
    const program = await buildProgram(argv, io);
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode ?? EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help asked for (or the version) is a success; help shown because no command was given is not.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof CliError) {
      io.stderr.write(`error: ${err.message}\n`);
      return err.exitCode;
    }
    if (isStoreError(err)) {
      // The database the user pointed at cannot be used (not a database, newer than this version, …).
      io.stderr.write(`error: ${err.message}\n`);
      return err.code === 'OPEN_FAILED' ? EXIT.usage : EXIT.failure;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`error: ${message}\n`);
    if (io.debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    else io.stderr.write('(run with --debug for details)\n');
    return EXIT.failure;
  }
}

async function buildProgram(argv: readonly string[], io: CliIo): Promise<Command> {
  const modules = await Promise.all(commandsFor(argv).map((c) => c.load()));
  const program = new Command('squadron')
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
  for (const sub of program.commands) sub.exitOverride();
  return program;
}


/** The package's version (a test keeps it equal to package.json's; reading the file here would load more at start-up). */
export const VERSION = '0.1.0';

/** store/StoreError, recognised without importing the store at start-up. */
function isStoreError(err: unknown): err is Error & { code: string } {
  return err instanceof Error && err.name === 'StoreError' && typeof (err as { code?: unknown }).code === 'string';
}
