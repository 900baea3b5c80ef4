// "Did you mean …?" hints in the loader's wording. The matching itself (edit distance, how close
// is close enough) is config/hcl/suggest.ts, shared with the HCL layer; re-exported here for the CLI.

import { closest } from './hcl/suggest.js';

export { closest, editDistance } from './hcl/suggest.js';

/** A hint for an unknown name: "did you mean X?" or, failing that, the list of known names. */
export function suggestionHint(name: string, candidates: readonly string[], render: (c: string) => string = (c) => c): string | undefined {
  const best = closest(name, candidates);
  if (best !== undefined) return `did you mean ${render(best)}?`;
  if (candidates.length === 0) return undefined;
  const shown = candidates.slice(0, 8).map(render).join(', ');
  return candidates.length > 8 ? `known: ${shown}, … (${candidates.length} in all)` : `known: ${shown}`;
}
