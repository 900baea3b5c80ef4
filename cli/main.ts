#!/usr/bin/env node
// Entry point of the `squadron` binary: wires the real process streams into the command tree, and
// exits as soon as the command is done and its output flushed (idle keep-alive sockets of the model
// SDKs would otherwise hold the process open for a while).

import { main } from './program.js';
import { warnOncePerText } from './warnOnce.js';

console.warn = warnOncePerText(console.warn.bind(console));

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: Boolean(process.stderr.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  cwd: process.cwd(),
  env: process.env,
  debug: process.argv.includes('--debug'),
});
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => (stream.writableNeedDrain ? stream.once('drain', () => resolve()) : resolve()));
}
