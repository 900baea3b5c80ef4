// The loop every stage runs over its named blocks (`model "x"`, `tool "y"`, `mission "m"` …): check
// the name, claim it in its namespace (a repeat is SCH008 and skipped), load the block, and record a
// block that failed as broken so a reference to it is not reported a second time as unknown.

import type { Block } from '../hcl/ast.js';
import type { Diagnostic } from '../hcl/diagnostic.js';
import { checkBlockName, NameRegistry } from '../schema.js';
import type { LoadContext, Namespace } from '../scope.js';

export interface NamedBlockOptions<T = unknown> {
  /** The name rule (default: checkBlockName). */
  checkName?: (block: Block, diags: Diagnostic[]) => boolean;
  /** Where a failed block is recorded in `ctx.symbols.broken` (`models` → `models.<name>`). */
  namespace?: Namespace;
  /** The registry to claim names in, when the caller needs it afterwards or pre-fills it. */
  names?: NameRegistry;
  /** Handed each loaded value, in order, instead of it being kept in the result (then empty). */
  each?: (value: T) => void;
}

/**
 * Loads each block whose name is new, in order. A block with a bad name is still loaded, so every
 * problem in it shows in one run, but it is left out of the result like one that failed to load.
 * `kind` names the block in the SCH008 message ("model", "mcp server").
 */
export function loadNamedBlocks<T>(
  blocks: readonly Block[],
  kind: string,
  ctx: LoadContext,
  load: (block: Block, name: string) => T | undefined,
  opts: NamedBlockOptions<T> = {},
): T[] {
  const names = opts.names ?? new NameRegistry(kind);
  const checkName = opts.checkName ?? checkBlockName;
  const out: T[] = [];
  for (const block of blocks) {
    const name = block.labels[0]!;
    const nameOk = checkName(block, ctx.diags);
    if (!names.claim(name, block.labelRanges[0]!, ctx.diags)) continue;
    const value = load(block, name);
    if (value === undefined || !nameOk) {
      if (opts.namespace !== undefined) ctx.symbols.broken.add(`${opts.namespace}.${name}`);
      continue;
    }
    if (opts.each !== undefined) opts.each(value);
    else out.push(value);
  }
  return out;
}
