// The model SDKs warn through console.warn on every request: the Anthropic SDK, for instance, prints
// two lines about a deprecated model on each call, so a run would interleave the same warning with its
// progress dozens of times (`validate` and `run` already report MOD001 once, with a replacement).
// Each distinct warning is therefore printed once per process.

import { format } from 'node:util';

export function warnOncePerText(warn: (...args: unknown[]) => void): (...args: unknown[]) => void {
  const seen = new Set<string>();
  return (...args) => {
    const text = format(...args);
    if (seen.has(text)) return;
    seen.add(text);
    warn(...args);
  };
}
