// The fix `squadron fmt` applies for REF004 warnings: a reference written as a string
// (`implements = "builtins.http.get"`, `tools = ["builtins.files.read"]`, as configs of the first
// implementation write them) loses its quotes. Only attributes that take references, and only
// strings shaped like a reference into a namespace, are touched; everything else is left as written.

import type { Body, Expression } from './hcl/ast.js';
import { parseHcl } from './hcl/index.js';
import { literalText } from './hcl/source.js';

const REFERENCE_ATTRIBUTES = new Set(['implements', 'tools', 'model', 'agents', 'skills', 'always_load', 'sampling_model', 'toolsets']);
const NAMESPACES = new Set(['builtins', 'tools', 'toolsets', 'models', 'agents', 'skills', 'mcp', 'plugins']);
const DOTTED = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/;

/** The source with quoted references unquoted; the source itself when it has none or does not parse. */
export function unquoteReferences(source: string, fileName: string): string {
  const parsed = parseHcl(source, fileName);
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return source;
  const edits: { start: number; end: number; text: string }[] = [];
  const consider = (expr: Expression): void => {
    const text = literalText(expr);
    if (text === undefined || !DOTTED.test(text) || !NAMESPACES.has(text.split('.')[0]!)) return;
    edits.push({ start: expr.range.start.offset, end: expr.range.end.offset, text });
  };
  const walk = (body: Body): void => {
    for (const attr of body.attributes) {
      if (!REFERENCE_ATTRIBUTES.has(attr.name)) continue;
      if (attr.expr.kind === 'Tuple') attr.expr.items.forEach(consider);
      else consider(attr.expr);
    }
    for (const block of body.blocks) walk(block.body);
  };
  walk(parsed.file.body);
  let out = source;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
