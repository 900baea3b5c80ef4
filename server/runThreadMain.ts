// The file a run thread of `squadron serve` starts from (server/runPool.ts): bundled on its own as
// dist/cli/runThread.cjs (scripts/bundle.mjs); tsc's dist/server/runThreadMain.js serves otherwise.

import { runThread } from './runThread.js';

runThread();
