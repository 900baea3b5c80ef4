// An mcp block's `source`/`version`/`entry` (the form configs of the first implementation use):
// `source = "npm:<package>"` with a `version` becomes a stdio server started by `npx -y
// <package>@<version>` (npx downloads it from the npm registry once and caches it). A
// `github.com/owner/repo` source needs its release built and installed first, which Squadron does not
// do: that is an error saying to run the installed binary with `command`.

import { diagnosticAt } from '../hcl/diagnostic.js';
import type { McpTransport } from '../graph.js';
import type { DecodedBody } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { readString, readStringList, readStringMap } from '../values.js';

export const MCP_SOURCE_ATTRIBUTES = { source: {}, version: {}, entry: {}, client_id: {}, client_secret: {} } as const;

/** The transport a `source` gives; undefined after reporting a problem. Only called when `source` is set. */
export function loadSourceTransport(body: DecodedBody, where: string, scope: Scope, ctx: LoadContext): McpTransport | undefined {
  const a = (n: string) => body.attrs.get(n);
  const sourceAttr = a('source')!;
  for (const other of ['command', 'url']) {
    const attr = a(other);
    if (attr !== undefined) {
      ctx.diags.push(diagnosticAt(attr.nameRange, 'error', 'SCH012', `${where} has both source and ${other}`, 'use one of command, url or source'));
      return undefined;
    }
  }
  const source = readString(sourceAttr, scope, ctx.diags);
  const version = readString(a('version'), scope, ctx.diags);
  if (source === undefined) return undefined;
  if (source.startsWith('github.com/')) {
    ctx.diags.push(
      diagnosticAt(sourceAttr.expr.range, 'error', 'GO008', `${where}: a github.com source is not downloaded or built here`, 'install the server from its release yourself and start it with command = "<path to the binary>" (and args)'),
    );
    return undefined;
  }
  if (!source.startsWith('npm:') || source.length === 'npm:'.length) {
    ctx.diags.push(diagnosticAt(sourceAttr.expr.range, 'error', 'SCH010', `source must be "npm:<package>" or "github.com/owner/repo", got "${source}"`));
    return undefined;
  }
  if (a('version') === undefined) {
    ctx.diags.push(diagnosticAt(sourceAttr.nameRange, 'error', 'SCH003', `${where}: version is required when source is set`, 'add version = "1.2.3" (or "latest")'));
    return undefined;
  }
  if (a('entry') !== undefined) {
    ctx.diags.push(diagnosticAt(a('entry')!.nameRange, 'error', 'SCH012', 'entry is only valid with a github.com source'));
    return undefined;
  }
  if (version === undefined) return undefined;
  const args = a('args') === undefined ? [] : readStringList(a('args'), scope, ctx.diags);
  const env = a('env') === undefined ? {} : readStringMap(a('env'), scope, ctx.diags);
  if (args === undefined || env === undefined) return undefined;
  return { kind: 'stdio', command: 'npx', args: ['-y', `${source.slice('npm:'.length)}@${version}`, ...args], env };
}

/** `client_id`/`client_secret`: read (a mistake in them is reported) and not used, with a warning. */
export function warnClientCredentials(body: DecodedBody, where: string, scope: Scope, ctx: LoadContext): void {
  const attr = body.attrs.get('client_id') ?? body.attrs.get('client_secret');
  if (attr === undefined) return;
  readString(body.attrs.get('client_id'), scope, ctx.diags);
  readString(body.attrs.get('client_secret'), scope, ctx.diags);
  ctx.diags.push(
    diagnosticAt(attr.nameRange, 'warning', 'GO009', `${where}: client_id and client_secret are not used`, '`squadron mcp login <name>` registers Squadron with the server itself (OAuth dynamic client registration); a server without it needs a token in headers'),
  );
}
