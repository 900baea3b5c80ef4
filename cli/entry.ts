#!/usr/bin/env node
// Entry point of the `squadron` binary. Turns on Node's compile cache before anything else is loaded
// (it only helps modules compiled after it is on, hence the dynamic import), then starts the CLI.
// scripts/bundle.mjs bundles tsc's output of this file into dist/cli/main.js, the file users run:
// this module stays small, and the dynamic import becomes the first chunk of dist/cli/chunks/.

import { startCompileCache } from './compileCache.js';

startCompileCache();
await import('./bin.js');
