// The CLI's start-up compile cache: after the first run, the chunks a command loads are read as V8
// code cache instead of compiled again. On Node 22.8+ it is Node's own (module.enableCompileCache),
// which covers CommonJS and ES modules alike; on Node 20, which has none, it is cli/codeCache.ts,
// which does the same for the bundle's CommonJS chunks. Either way the cache lives in Node's choice of
// folder (NODE_COMPILE_CACHE when set, else <os temp>/node-compile-cache), never inside the install,
// so a read-only install is unaffected, and NODE_DISABLE_COMPILE_CACHE=1 turns it off. A folder that
// cannot be written costs the cache only: the CLI starts without one.

import module from 'node:module';
import { startCodeCache } from './codeCache.js';

type EnableCompileCache = () => unknown;

/** Turns the cache on for what is loaded from now on; `bundleDir` holds the CLI's chunks. */
export function startCompileCache(bundleDir: string): void {
  const enable = (module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  try {
    if (typeof enable === 'function') enable();
    else startCodeCache(bundleDir);
  } catch {
    // A cache is an optimisation: whatever goes wrong with it, the command runs without one.
  }
}
