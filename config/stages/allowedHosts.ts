// The top-level `allowed_hosts = ["127.0.0.1", "10.0.0.0/8", "*.corp.example"]`: the loopback,
// private and link-local hosts the HTTP tools may reach (core/hostPolicy.ts refuses them otherwise).
// Every file may set it; the lists are joined. An entry that is neither a host name, an address nor
// a range is SCH010 at the entry.

import type { Attribute } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import { allowedHostProblem } from '../../core/hostPolicy.js';
import { scopeFor, type LoadContext } from '../scope.js';
import { readStringList } from '../values.js';

export function loadAllowedHosts(attrs: readonly Attribute[], ctx: LoadContext): string[] {
  const out: string[] = [];
  for (const attr of attrs) {
    const list = readStringList(attr, scopeFor(ctx, 'variable', 'allowed_hosts'), ctx.diags);
    if (list === undefined) continue;
    const items = attr.expr.kind === 'Tuple' ? attr.expr.items : [];
    list.forEach((entry, i) => {
      const problem = allowedHostProblem(entry.trim());
      if (problem !== undefined) ctx.diags.push(diagnosticAt(items[i]?.range ?? attr.expr.range, 'error', 'SCH010', `allowed_hosts: "${entry}" is not a host name, an address or a range`, problem));
      else if (!out.includes(entry.trim().toLowerCase())) out.push(entry.trim().toLowerCase());
    });
  }
  return out;
}
