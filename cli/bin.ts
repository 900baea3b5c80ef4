// The `squadron` process (loaded by cli/entry.ts): wires the real process streams into the command
// tree, and exits as soon as the command is done and its output flushed (idle keep-alive sockets of
// the model SDKs would otherwise hold the process open for a while).

import { format } from 'node:util';
import type { CliIo } from './io.js';
import { main } from './program.js';
import { warnOncePerText } from './warnOnce.js';

/** 128 + SIGPIPE: what a shell reports for a writer whose reader closed the pipe. */
const EXIT_CLOSED_PIPE = 141;

const io: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: Boolean(process.stderr.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  cwd: process.cwd(),
  env: process.env,
  debug: process.argv.includes('--debug'),
};
// A reader that goes away (`squadron validate --json | head -1`) closes the pipe: writing on is
// pointless, so the process ends quietly with the status a shell gives a command killed by SIGPIPE
// (128 + 13), as other Unix tools do, instead of an unhandled-error stack trace.
for (const stream of [process.stdout, process.stderr]) stream.on('error', endOnClosedPipe);
// Through io.stderr, not process.stderr: once a command knows the secrets, they are masked there.
console.warn = warnOncePerText((...args: unknown[]) => io.stderr.write(`${format(...args)}\n`));

void run();

/** Runs the command, then exits once its output is flushed. (A function: the bundle is CommonJS, which has no top-level await.) */
async function run(): Promise<never> {
  const code = await main(process.argv.slice(2), io);
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

function endOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(EXIT_CLOSED_PIPE);
  throw error;
}

/**
 * Resolves once everything written to `stream` has reached the operating system. `writableNeedDrain`
 * is not that: it stays false while less than a buffer's worth still waits for a pipe whose reader
 * is behind, and `process.exit` then drops those bytes (on Node 26, 16 kB of a validate summary's
 * tail under load). An empty write's callback runs after every write queued before it.
 */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => (stream.writableLength === 0 ? resolve() : stream.write('', () => resolve())));
}
