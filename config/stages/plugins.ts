// Stage 1.5 (as in Go): `plugin "name" { source, version, settings { … } }` blocks. The loader never
// starts a plugin; it checks the block as Go does (reserved names, version form, a local source needs
// version = "local") and resolves a local source against the declaring file's folder (`@/` = project
// root; an absolute source or one outside the project is refused, as Go does: config/configPath.ts). The runtime and validate's second pass start it and ask it for its tools.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import { UnknownValue } from '../hcl/value.js';
import type { PluginBlock } from '../graph.js';
import { blockHeader, decodeBody, locationOf, type BlockSchema } from '../schema.js';
import { scopeFor, type LoadContext } from '../scope.js';
import { evaluateValue, readString } from '../values.js';
import { loadNamedBlocks } from './namedBlocks.js';
import { resolveConfigPath } from '../configPath.js';

const PLUGIN_SCHEMA: BlockSchema = { attributes: { source: {}, version: { required: true } }, blocks: { settings: { labels: [], max: 1 } } };
/** Go's reserved builtin namespaces: a plugin may not take one of these names. */
const RESERVED = ['http', 'dataset', 'utils', 'human', 'mcp'];
const VERSION = /^(local|v?\d+\.\d+\.\d+(-[a-zA-Z0-9.-]+)?(\+[a-zA-Z0-9.-]+)?)$/;

export function loadPlugins(blocks: readonly Block[], ctx: LoadContext): PluginBlock[] {
  const plugins = loadNamedBlocks(blocks, 'plugin', ctx, (block, name) => loadPlugin(block, name, ctx), { namespace: 'plugins' });
  for (const p of plugins) ctx.symbols.plugins.set(p.name, p);
  return plugins;
}

function loadPlugin(block: Block, name: string, ctx: LoadContext): PluginBlock | undefined {
  const scope = scopeFor(ctx, 'plugin', `plugin "${name}"`);
  const errors = ctx.diags.length;
  const body = decodeBody(block.body, PLUGIN_SCHEMA, { what: `plugin "${name}"`, header: blockHeader(block) }, ctx.diags);
  if (RESERVED.includes(name)) {
    ctx.diags.push(diagnosticAt(block.labelRanges[0]!, 'error', 'PLG001', `plugin name "${name}" is reserved for internal tools`, `rename it: ${RESERVED.join(', ')} are builtin namespaces`));
  }
  const versionAttr = body.attrs.get('version');
  const version = readString(versionAttr, scope, ctx.diags);
  if (version !== undefined && !VERSION.test(version)) {
    ctx.diags.push(diagnosticAt(versionAttr!.expr.range, 'error', 'PLG002', `invalid plugin version "${version}": must be "local" or a semantic version (v1.0.0)`));
  }
  const sourceAttr = body.attrs.get('source');
  let source = readString(sourceAttr, scope, ctx.diags);
  if (source === undefined && version !== undefined && version !== 'local') {
    ctx.diags.push(diagnosticAt(blockHeader(block), 'error', 'PLG002', `plugin "${name}": source is required unless version is "local"`, 'add source = "github.com/owner/repo" or a local path with version = "local"'));
  }
  if (source !== undefined && !source.startsWith('github.com/')) {
    if (version !== undefined && version !== 'local') {
      ctx.diags.push(diagnosticAt(sourceAttr!.expr.range, 'error', 'PLG002', `plugin "${name}": local source requires version = "local", got "${version}"`, 'set version = "local"'));
    }
    // As in Go: relative to the declaring file (`@/` = project root), never absolute, never outside the project.
    const resolved = resolveConfigPath(source, block.range.file, ctx.projectRoot);
    if (resolved.ok) source = resolved.path;
    else {
      const code = resolved.message.includes('absolute') ? 'FIL006' : 'FIL002';
      ctx.diags.push(diagnosticAt(sourceAttr!.expr.range, 'error', code, `plugin "${name}": source ${resolved.message}`, resolved.hint));
    }
  }
  const settings: Record<string, string> = {};
  const settingsBlock = body.blocks.get('settings')?.[0];
  for (const attr of settingsBlock?.body.attributes ?? []) {
    const value = evaluateValue(attr.expr, scope, ctx.diags);
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') settings[attr.name] = String(value);
    else if (value instanceof UnknownValue) continue;
    else ctx.diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH007', `plugin "${name}" setting ${attr.name} must be a string, number or bool`));
  }
  if (ctx.diags.length > errors && ctx.diags.slice(errors).some((d) => d.severity === 'error')) return undefined;
  return { name, version: version!, settings, location: locationOf(block), ...(source !== undefined ? { source } : {}) };
}
