// The CLI's start-up compile cache: after the first run, the chunks a command loads are read as V8
// code cache instead of compiled again. It is Node's own (module.enableCompileCache, Node 22.8+, so
// every supported line), which covers CommonJS and ES modules alike. The cache lives in Node's choice
// of folder (NODE_COMPILE_CACHE when set, else <os temp>/node-compile-cache), never inside the install,
// so a read-only install is unaffected, and NODE_DISABLE_COMPILE_CACHE=1 turns it off. A folder that
// cannot be written costs the cache only: the CLI starts without one.

import module from 'node:module';

/** Turns the cache on for what is loaded from now on. */
export function startCompileCache(): void {
  try {
    module.enableCompileCache();
  } catch {
    // A cache is an optimisation: whatever goes wrong with it, the command runs without one.
  }
}
