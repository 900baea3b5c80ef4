#!/usr/bin/env node
// Entry point of the `squadron` binary: wires the real process streams into the command tree.

import { main } from './program.js';

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: Boolean(process.stderr.isTTY),
  cwd: process.cwd(),
  env: process.env,
  debug: process.argv.includes('--debug'),
});
process.exitCode = code;
