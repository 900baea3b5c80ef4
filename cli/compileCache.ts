// Node's on-disk compile cache for the CLI's start-up (module.enableCompileCache, Node 22.8+): after
// the first run, the modules a command loads are read as V8 code cache instead of compiled again.
// Feature-detected, so on Node 20 this does nothing. With no argument Node decides where the cache
// lives: NODE_COMPILE_CACHE when set, else <os temp>/node-compile-cache — never inside the install,
// so a read-only install is unaffected — and NODE_DISABLE_COMPILE_CACHE=1 turns it off. A folder that
// cannot be written is reported by Node as a status, not thrown, and the CLI starts without a cache.

import module from 'node:module';

type EnableCompileCache = () => unknown;

export function startCompileCache(): void {
  const enable = (module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    enable();
  } catch {
    // A cache is an optimisation: whatever goes wrong with it, the command runs without one.
  }
}
