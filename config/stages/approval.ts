// `approval = [...]` on a task or an agent: tools whose calls wait for the operator's approval. An
// entry is any tool reference (a toolset or `builtins.<ns>.all` stands for its tools, `mcp.<s>.all`
// for every tool of the server) and must name tools the task or agent holds: a list that names
// something else protects nothing, so it is an error (REF016), not a silent no-op.

import type { Attribute } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { ApprovalRule, ApprovalVia, ToolRefWithProvenance } from '../graph.js';
import { asRef, refItems, resolveToolRef } from '../references.js';
import type { LoadContext, Scope } from '../scope.js';
import { coversToolRef, isToolOfMcpAll } from '../toolRefs.js';
import { exactList } from '../exactList.js';

export function loadApprovalList(
  attr: Attribute,
  via: ApprovalVia,
  held: readonly ToolRefWithProvenance[],
  whose: string,
  scope: Scope,
  ctx: LoadContext,
): ApprovalRule[] {
  const items = refItems(attr, 'builtins.http.post', ctx.diags) ?? [];
  const heldRefs = held.map((t) => t.ref);
  const rules: ApprovalRule[] = [];
  for (const item of items) {
    const p = asRef(item, 'builtins.http.post', ctx.diags);
    const refs = p === undefined ? undefined : resolveToolRef(p, 'task', scope, ctx.diags);
    if (refs === undefined) continue;
    for (const { ref } of refs) {
      // `mcp.s.all` in the list covers the server's tools the holder has, by name or through its own `.all`.
      const covered = coversToolRef(heldRefs, ref) || heldRefs.some((h) => isToolOfMcpAll(ref, h));
      if (!covered) {
        ctx.diags.push(
          diagnosticAt(item.range, 'error', 'REF016', `approval: ${ref} is not among the tools of ${whose}`, 'approval lists tools already given in tools = [...] (or through a toolset); add it there first or remove it here'),
        );
        continue;
      }
      if (!rules.some((r) => r.ref === ref)) rules.push({ ref, via });
    }
  }
  return exactList(rules);
}

/** The route that makes `ref` need approval in a session holding `tools` under `rules`, if any. */
export function approvalOf(ref: string, tools: readonly ToolRefWithProvenance[], rules: readonly ApprovalRule[]): ApprovalVia | undefined {
  for (const t of tools) if (t.approval !== undefined && (t.ref === ref || isToolOfMcpAll(t.ref, ref))) return t.approval;
  for (const r of rules) if (r.ref === ref || isToolOfMcpAll(r.ref, ref)) return r.via;
  return undefined;
}
