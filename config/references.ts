// Resolving references in reference positions (`tools = [...]`, `model = ...`, `depends_on`, …).
// A reference is a traversal, never a string: `"builtins.http.get"` is an error with a fix-it hint.
// Resolution keeps each reference's full identity (model block and key, the toolset an entry came
// from) and expands toolsets and `builtins.<ns>.all` in place, order kept, first occurrence wins.

import { isInvalidExpr, type Attribute, type Expression } from './hcl/ast.js';
import { literalText } from './hcl/source.js';
import { diagnosticAt, type Diagnostic, type Range } from './hcl/diagnostic.js';
import { BUILTIN_NAMESPACES, builtinTool, builtinToolsIn } from './builtinTools.js';
import type { ModelRef, Provenance, ToolRefWithProvenance } from './graph.js';
import { catalogFor, catalogModel, catalogModelByApiId } from './modelCatalog.js';
import { isNamespace, NAMESPACES, visibleIn, whereVisible, type Namespace, type Scope } from './scope.js';
import { suggestionHint } from './suggest.js';
import { PROMPTS_REF } from './toolRefs.js';

export interface RefPart {
  name: string;
  range: Range;
}

/** A reference as written: `root.part.part`. */
export interface RefPath {
  root: string;
  parts: RefPart[];
  range: Range;
  text: string;
}

const DOTTED = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/;

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const NAMED_EXAMPLE = /^([a-z_]+)\.<name>$/;

/** `"a"` where `tasks.<name>` belongs: the reference it most likely means, written out. */
function quotedNameHint(text: string, example: string): string {
  const ns = NAMED_EXAMPLE.exec(example)?.[1];
  return ns !== undefined && NAME.test(text) ? `write ${ns}.${text} without quotes` : `write a reference such as ${example}`;
}

/** Interprets an expression written where a reference belongs. */
export function asRef(expr: Expression, example: string, diags: Diagnostic[]): RefPath | undefined {
  // A reference that failed to parse (`builtins.files.`): its syntax error is already reported.
  if (isInvalidExpr(expr)) return undefined;
  const text = literalText(expr);
  if (text !== undefined) {
    if (DOTTED.test(text)) {
      // Go Squadron accepts a quoted reference: so do we, with a warning whose fix `squadron fmt` applies.
      diags.push(diagnosticAt(expr.range, 'warning', 'REF004', `"${text}" is a string, not a reference: read as ${text}`, `write ${text} without quotes (squadron fmt does it)`));
      const [root, ...names] = text.split('.');
      return { root: root!, parts: names.map((name) => ({ name, range: expr.range })), range: expr.range, text };
    }
    diags.push(diagnosticAt(expr.range, 'error', 'REF004', `"${text}" is a string, not a reference`, quotedNameHint(text, example)));
    return undefined;
  }
  if (expr.kind === 'Template' && expr.parts.length === 1 && expr.parts[0]!.kind === 'TemplateInterpolation') {
    const inner = expr.parts[0]!.expr;
    const shown = inner.kind === 'ScopeTraversal' ? refText(inner.root, inner.steps.map((s) => (s.kind === 'GetAttr' ? s.name : '…'))) : example;
    diags.push(diagnosticAt(expr.range, 'error', 'REF004', 'a quoted interpolation is a string, not a reference', `write ${shown} without quotes and \${ }`));
    return undefined;
  }
  if (expr.kind !== 'ScopeTraversal') {
    diags.push(diagnosticAt(expr.range, 'error', 'REF006', `expected a reference such as ${example}`));
    return undefined;
  }
  const parts: RefPart[] = [];
  for (const step of expr.steps) {
    if (step.kind === 'GetAttr') {
      parts.push({ name: step.name, range: step.range });
      continue;
    }
    // `mcp.server["tool.name"]` lets a reference name an MCP tool that is not an identifier.
    const key = step.key.kind === 'Literal' && typeof step.key.value === 'string' ? step.key.value : literalText(step.key);
    if (key === undefined) {
      diags.push(diagnosticAt(step.range, 'error', 'REF006', 'a reference cannot use a computed index', `write ${example}`));
      return undefined;
    }
    parts.push({ name: key, range: step.range });
  }
  return { root: expr.root, parts, range: expr.range, text: refText(expr.root, parts.map((p) => p.name)) };
}

function refText(root: string, names: readonly string[]): string {
  return [root, ...names].join('.');
}

/** The items of a list attribute of references; a non-list is reported once. */
export function refItems(attr: Attribute, example: string, diags: Diagnostic[]): Expression[] | undefined {
  const expr = attr.expr.kind === 'Parentheses' ? attr.expr.expr : attr.expr;
  if (expr.kind === 'Tuple') return expr.items;
  if (isInvalidExpr(expr)) return undefined;
  const hint = expr.kind === 'ScopeTraversal' ? `write ${attr.name} = [${refText(expr.root, expr.steps.map((s) => (s.kind === 'GetAttr' ? s.name : '…')))}]` : `write ${attr.name} = [${example}]`;
  diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH007', `${attr.name} must be a list of references`, hint));
  return undefined;
}

/** Checks the root names a visible namespace. */
function checkRoot(p: RefPath, scope: Scope, diags: Diagnostic[]): Namespace | undefined {
  if (!isNamespace(p.root)) {
    const hint = suggestionHint(p.root, NAMESPACES);
    diags.push(diagnosticAt(p.range, 'error', 'REF001', `unknown namespace "${p.root}" in ${p.text}`, hint));
    return undefined;
  }
  if (!visibleIn(scope, p.root)) {
    diags.push(diagnosticAt(p.range, 'error', 'REF002', `"${p.root}" cannot be referenced in ${scope.where}`, `${p.root} can be referenced ${whereVisible(p.root)}`));
    return undefined;
  }
  return p.root;
}

function wrongShape(p: RefPath, form: string, diags: Diagnostic[]): undefined {
  diags.push(diagnosticAt(p.range, 'error', 'REF006', `${p.text} is not a complete reference: write ${form}`));
  return undefined;
}

function wrongKind(p: RefPath, expected: string, diags: Diagnostic[]): undefined {
  diags.push(diagnosticAt(p.range, 'error', 'REF005', `expected ${expected}, got ${p.text}`));
  return undefined;
}

/** `ns.<name>`: one part naming an entry of `known`; unknown names get a suggestion. */
function resolveName(p: RefPath, kind: string, known: ReadonlyMap<string, unknown>, scope: Scope, diags: Diagnostic[]): string | undefined {
  if (p.parts.length !== 1) return wrongShape(p, `${p.root}.<name>`, diags);
  const name = p.parts[0]!.name;
  if (known.has(name)) return name;
  if (scope.symbols.broken.has(`${p.root}.${name}`)) return undefined;
  diags.push(diagnosticAt(p.range, 'error', 'REF003', `unknown ${kind} "${name}"`, suggestionHint(name, [...known.keys()], (c) => `${p.root}.${c}`)));
  return undefined;
}

const TOOL_KINDS = 'a tool reference (builtins.<ns>.<tool>, tools.<name>, mcp.<server>.<tool>, plugins.<plugin>.<tool>, toolsets.<name>)';

/**
 * Resolves one tool reference into the refs it stands for: itself, a builtin namespace's tools
 * (`.all`) or a toolset's entries (provenance `toolset:<n>`). Undefined when reported.
 */
export function resolveToolRef(p: RefPath, direct: Provenance, scope: Scope, diags: Diagnostic[]): ToolRefWithProvenance[] | undefined {
  if (p.root === 'toolsets' && scope.toolset !== undefined) {
    const other = p.parts[0]?.name ?? '?';
    diags.push(
      diagnosticAt(p.range, 'error', 'REF008', `toolset "${scope.toolset}" references toolset "${other}": toolsets cannot contain toolsets`, `list the tools of "${other}" directly in "${scope.toolset}"`),
    );
    return undefined;
  }
  const ns = checkRoot(p, scope, diags);
  if (ns === undefined) return undefined;
  switch (ns) {
    case 'builtins': {
      if (p.parts.length !== 2) return wrongShape(p, 'builtins.<namespace>.<tool> or builtins.<namespace>.all', diags);
      const [space, tool] = [p.parts[0]!.name, p.parts[1]!.name];
      if (!(BUILTIN_NAMESPACES as readonly string[]).includes(space)) {
        diags.push(diagnosticAt(p.range, 'error', 'REF003', `unknown builtin namespace "${space}"`, suggestionHint(space, BUILTIN_NAMESPACES, (c) => `builtins.${c}`)));
        return undefined;
      }
      if (tool === 'all') return builtinToolsIn(space).map((t) => ({ ref: t.ref, via: direct }));
      const ref = `builtins.${space}.${tool}`;
      if (builtinTool(ref) !== undefined) return [{ ref, via: direct }];
      const names = [...builtinToolsIn(space).map((t) => t.name), 'all'];
      diags.push(diagnosticAt(p.range, 'error', 'REF003', `unknown builtin tool ${ref}`, suggestionHint(tool, names, (c) => `builtins.${space}.${c}`)));
      return undefined;
    }
    case 'tools': {
      const name = resolveName(p, 'custom tool', scope.symbols.tools, scope, diags);
      if (name === undefined) return undefined;
      return [{ ref: `tools.${name}`, via: direct, ...(scope.symbols.tools.get(name)?.approval ? { approval: 'tool' as const } : {}) }];
    }
    case 'mcp': {
      if (p.parts.length !== 2) return wrongShape(p, 'mcp.<server>.<tool> or mcp.<server>.all', diags);
      const server = knownMcpServer(p, scope, diags);
      if (server === undefined) return undefined;
      const tool = p.parts[1]!.name;
      scope.symbols.mcpUses.push({ server, tool, range: p.range });
      return [{ ref: `mcp.${server}.${tool}`, via: direct }];
    }
    case 'plugins': {
      if (p.parts.length !== 2) return wrongShape(p, 'plugins.<plugin>.<tool> or plugins.<plugin>.all', diags);
      const plugin = p.parts[0]!.name;
      if (!scope.symbols.plugins.has(plugin)) {
        if (!scope.symbols.broken.has(`plugins.${plugin}`)) {
          const hint = suggestionHint(plugin, [...scope.symbols.plugins.keys()], (c) => `plugins.${c}`) ?? `declare it: plugin "${plugin}" { source = "…" version = "…" }`;
          diags.push(diagnosticAt(p.range, 'error', 'REF003', `unknown plugin "${plugin}"`, hint));
        }
        return undefined;
      }
      const tool = p.parts[1]!.name;
      scope.symbols.pluginUses.push({ plugin, tool, range: p.range });
      return [{ ref: `plugins.${plugin}.${tool}`, via: direct }];
    }
    case 'toolsets': {
      const name = resolveName(p, 'toolset', scope.symbols.toolsets, scope, diags);
      const toolset = name === undefined ? undefined : scope.symbols.toolsets.get(name);
      // The toolset's own entries already say `toolset:<name>`: shared, not copied per use.
      return toolset === undefined ? undefined : toolset.tools.slice();
    }
    default:
      return wrongKind(p, TOOL_KINDS, diags);
  }
}

/**
 * Appends refs not yet present: order kept, first occurrence (and its provenance) wins, except that a
 * later route requiring approval marks the kept entry (a copy: entries may be a toolset's, shared).
 */
export function mergeTools(into: ToolRefWithProvenance[], more: readonly ToolRefWithProvenance[], seen = new Set(into.map((t) => t.ref))): void {
  for (const t of more) {
    if (seen.has(t.ref)) {
      if (t.approval === undefined) continue;
      const at = into.findIndex((x) => x.ref === t.ref);
      if (at >= 0 && into[at]!.approval === undefined) into[at] = { ...into[at]!, approval: t.approval };
      continue;
    }
    seen.add(t.ref);
    into.push(t);
  }
}

/** Resolves a `tools = [...]` list: expanded, de-duplicated. Undefined only when it is not a list. */
export function resolveToolList(attr: Attribute, direct: Provenance, scope: Scope, diags: Diagnostic[]): ToolRefWithProvenance[] | undefined {
  const items = refItems(attr, 'builtins.http.get', diags);
  if (items === undefined) return undefined;
  const out: ToolRefWithProvenance[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const p = asRef(item, 'builtins.http.get', diags);
    const refs = p === undefined ? undefined : resolveToolRef(p, direct, scope, diags);
    if (refs !== undefined) mergeTools(out, refs, seen);
  }
  return out;
}

/** `models.<block>.<key>` → the block, the key, the provider and the wire id. */
export function resolveModelRef(attr: Attribute, scope: Scope, diags: Diagnostic[]): ModelRef | undefined {
  const p = asRef(attr.expr, 'models.<block>.<key>', diags);
  if (p === undefined) return undefined;
  const ns = checkRoot(p, scope, diags);
  if (ns === undefined) return undefined;
  if (ns !== 'models') return wrongKind(p, 'a model reference (models.<block>.<key>)', diags);
  if (p.parts.length !== 2) return wrongShape(p, 'models.<block>.<key>, e.g. models.anthropic.claude_sonnet_4_5', diags);
  const blockName = p.parts[0]!.name;
  const key = p.parts[1]!.name;
  // A block and key always resolve to the same facts: one ModelRef serves every use.
  const use = scope.symbols.modelUses.get(`${blockName}.${key}`);
  if (use !== undefined) {
    use.count++;
    return use.ref;
  }
  const block = scope.symbols.models.get(blockName);
  if (block === undefined) {
    if (!scope.symbols.broken.has(`models.${blockName}`)) {
      const hint = suggestionHint(blockName, [...scope.symbols.models.keys()], (c) => `models.${c}`) ?? `declare it: model "${blockName}" { provider = "anthropic" }`;
      diags.push(diagnosticAt(p.range, 'error', 'REF003', `unknown model block "${blockName}"`, hint));
    }
    return undefined;
  }
  const alias = block.aliases[key];
  const entry = catalogModel(block.provider, key);
  if (alias === undefined && entry === undefined && block.provider !== 'ollama') {
    const keys = [...Object.keys(block.aliases), ...catalogFor(block.provider).map((c) => c.key)];
    const hint = suggestionHint(key, keys, (c) => `models.${blockName}.${c}`) ?? `add it to the block's aliases: aliases = { ${key} = "<api model id>" }`;
    diags.push(diagnosticAt(p.range, 'error', 'REF009', `model block "${blockName}" (${block.provider}) has no model "${key}"`, hint));
    return undefined;
  }
  // An Ollama key not in the aliases is the local model's name itself.
  const apiModel = alias ?? entry?.apiModel ?? key;
  const ref: ModelRef = { block: blockName, key, provider: block.provider, apiModel };
  const known = alias === undefined ? entry : catalogModelByApiId(block.provider, alias);
  if (known !== undefined) ref.supportsReasoning = known.reasoning;
  // Go sends Ollama no reasoning effort either: its models think at their own default.
  if (block.provider === 'ollama') ref.supportsReasoning = false;
  scope.symbols.modelUses.set(`${blockName}.${key}`, { ref, range: p.range, count: 1 });
  return ref;
}

/**
 * Whether a resolved list lost an entry: an error was reported while resolving it, or a name whose
 * own block failed was skipped silently (its error is already reported). A check that the list is
 * empty then says nothing, or it would report the same mistake a second time, misleadingly.
 */
export function lostEntries(attr: Attribute, resolved: readonly unknown[] | undefined, reported: boolean): boolean {
  return reported || resolved === undefined || (attr.expr.kind === 'Tuple' && resolved.length < attr.expr.items.length);
}

/** A list of `<ns>.<name>` references to one namespace (skills, agents, tasks): names, de-duplicated. */
export function resolveNameList(
  attr: Attribute,
  ns: 'skills' | 'agents' | 'tasks' | 'memories' | 'packets',
  known: ReadonlyMap<string, unknown>,
  scope: Scope,
  diags: Diagnostic[],
  onDuplicate?: (name: string, range: Range) => void,
): { name: string; range: Range }[] | undefined {
  const example = `${ns}.<name>`;
  const items = refItems(attr, example, diags);
  if (items === undefined) return undefined;
  const out: { name: string; range: Range }[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const name = resolveNameRef(item, ns, known, scope, diags);
    if (name === undefined) continue;
    if (seen.has(name)) {
      onDuplicate?.(name, item.range);
      continue;
    }
    seen.add(name);
    out.push({ name, range: item.range });
  }
  return out;
}

type NameNamespace = 'skills' | 'agents' | 'tasks' | 'datasets' | 'inputs' | 'memories' | 'packets';
const KIND_WORD: Record<NameNamespace, string> = { skills: 'skill', agents: 'agent', tasks: 'task', datasets: 'dataset', inputs: 'input', memories: 'shared memory', packets: 'packet' };

/** One `<ns>.<name>` reference. */
export function resolveNameRef(expr: Expression, ns: NameNamespace, known: ReadonlyMap<string, unknown>, scope: Scope, diags: Diagnostic[]): string | undefined {
  const p = asRef(expr, `${ns}.<name>`, diags);
  if (p === undefined) return undefined;
  const root = checkRoot(p, scope, diags);
  if (root === undefined) return undefined;
  if (ns === 'skills' && root === 'mcp') return resolveMcpPromptRef(p, scope, diags);
  if (root !== ns) return wrongKind(p, `a ${KIND_WORD[ns]} reference (${ns}.<name>)`, diags);
  return resolveName(p, KIND_WORD[ns], known, scope, diags);
}

/** The server a `mcp.<server>…` reference names, or undefined after a REF003 (unless the block itself is broken). */
function knownMcpServer(p: RefPath, scope: Scope, diags: Diagnostic[]): string | undefined {
  const server = p.parts[0]!.name;
  if (scope.symbols.mcp.has(server)) return server;
  if (!scope.symbols.broken.has(`mcp.${server}`)) {
    const hint = suggestionHint(server, [...scope.symbols.mcp.keys()], (c) => `mcp.${c}`) ?? `declare it: mcp "${server}" { command = "…" }`;
    diags.push(diagnosticAt(p.range, 'error', 'REF003', `unknown mcp server "${server}"`, hint));
  }
  return undefined;
}

/**
 * A server's prompts as skills: `mcp.<server>.prompts` (every prompt of the server) or
 * `mcp.<server>.prompts.<name>` (one). The name is the reference as written; the prompts are only
 * known once the server is contacted, so any prompt name is accepted here.
 */
function resolveMcpPromptRef(p: RefPath, scope: Scope, diags: Diagnostic[]): string | undefined {
  const form = 'mcp.<server>.prompts or mcp.<server>.prompts.<prompt>';
  if ((p.parts.length !== 2 && p.parts.length !== 3) || p.parts[1]!.name !== PROMPTS_REF) {
    diags.push(diagnosticAt(p.range, 'error', 'REF005', `expected a skill reference (skills.<name>, or a server's prompts: ${form}), got ${p.text}`));
    return undefined;
  }
  const server = knownMcpServer(p, scope, diags);
  if (server === undefined) return undefined;
  if (p.parts.length === 3) scope.symbols.mcpPromptUses.push({ server, prompt: p.parts[2]!.name, range: p.range });
  return p.parts.map((part) => part.name).reduce((ref, name) => `${ref}.${name}`, 'mcp');
}
