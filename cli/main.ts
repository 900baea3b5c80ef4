#!/usr/bin/env node
// Entry point of the `squadron` binary. Turns on Node's compile cache before anything else is loaded
// (it only helps modules compiled after it is on, hence the dynamic import), then starts the CLI.

import { startCompileCache } from './compileCache.js';

startCompileCache();
await import('./bin.js');
