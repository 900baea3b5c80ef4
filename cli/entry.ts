#!/usr/bin/env node
// Entry point of the `squadron` binary. Checks the Node version, then turns on the compile cache before
// anything else is loaded (it only helps modules compiled after it is on, hence the dynamic import),
// then starts the CLI.
// scripts/bundle.mjs bundles tsc's output of this file into dist/cli/main.cjs, the file users run:
// this module stays small, and the dynamic import becomes the first chunk of dist/cli/chunks/.

import { startCompileCache } from './compileCache.js';
import { nodeTooOld } from './nodeVersion.js';

// An older Node gets one line, before anything that could fail on it is loaded.
const tooOld = nodeTooOld(process.versions.node);
if (tooOld !== undefined) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}
startCompileCache();
// zod compiles a specialised parser (new Function) for each object schema the first time it parses
// with it: worth it for a long-lived process parsing the same shapes many times, a loss for a command
// that parses each shape a few times (for `inspect`, a third of its CPU beyond Node's own start-up).
// Its interpreted path gives the same results and errors. zod reads this setting from globalThis when
// it creates a schema, so it is set before any module that defines one is loaded, and without loading
// zod (`docs`, `fmt` and `--version` never do). The programmatic API keeps zod's default.
((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {}).jitless = true;
// Not awaited: the bundle is CommonJS, which has no top-level await; the pending import holds the
// process open until the command ends (cli/bin.ts exits it).
void import('./bin.js');
