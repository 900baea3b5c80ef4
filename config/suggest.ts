// "Did you mean …?" hints in the loader's wording. The matching itself (edit distance, how close
// is close enough) is config/hcl/suggest.ts, shared with the HCL layer; re-exported here for the CLI.

import { closest, editDistance } from './hcl/suggest.js';

export { closest, editDistance } from './hcl/suggest.js';

/** Names listed in full in a hint; a longer list is cut with a count. */
const LISTED = 16;

/**
 * A hint for an unknown name: "did you mean X?" when a candidate is close enough to be a typo;
 * otherwise the nearest candidate anyway (a new name for the same idea is often far off by letters)
 * and the known names.
 */
export function suggestionHint(name: string, candidates: readonly string[], render: (c: string) => string = (c) => c): string | undefined {
  const best = closest(name, candidates);
  if (best !== undefined) return `did you mean ${render(best)}?`;
  if (candidates.length === 0) return undefined;
  const shown = candidates.slice(0, LISTED).map(render).join(', ');
  const known = candidates.length > LISTED ? `known: ${shown}, … (${candidates.length} in all)` : `known: ${shown}`;
  if (candidates.length === 1) return `the only one known here is ${render(candidates[0]!)}`;
  return `the nearest is ${render(nearest(name, candidates))}; ${known}`;
}

/** The candidate with the smallest edit distance (case ignored; ties keep the first). */
function nearest(name: string, candidates: readonly string[]): string {
  const lower = name.toLowerCase();
  let best = candidates[0]!;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
