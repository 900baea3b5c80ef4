// The Go original's `storage { backend, path, conn_string }` block (docs/concepts/migrate-from-go.md):
// where runs are stored, mapped onto our database choice. `--db`, SQUADRON_DATABASE_URL and
// SQUADRON_DB still win (cli/dbLocation.ts); without any of them a `run` uses this block, and without
// the block the config folder's .squadron/squadron.db.

import { isAbsolute, resolve } from 'node:path';
import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { StorageBlock } from '../graph.js';
import { decodeBody, locationOf, type BlockSchema } from '../schema.js';
import { scopeFor, type LoadContext } from '../scope.js';
import { readEnum, readString } from '../values.js';

const SCHEMA: BlockSchema = { attributes: { backend: {}, path: {}, conn_string: {} } };
const BACKENDS = ['sqlite', 'postgres'] as const;

/** Reads the project's storage block; a second one is an error (SCH005) at its header. */
export function loadStorage(blocks: readonly Block[], ctx: LoadContext): StorageBlock | undefined {
  const [block, ...extra] = blocks;
  for (const b of extra) {
    ctx.diags.push(diagnosticAt(b.typeRange, 'error', 'SCH005', 'a project may have at most one storage block', `another one starts at ${block!.typeRange.file}:${block!.typeRange.start.line}`));
  }
  if (block === undefined) return undefined;
  if (block.labels.length > 0) {
    ctx.diags.push(diagnosticAt(block.labelRanges[0]!, 'error', 'SCH006', 'the storage block takes no label', 'write storage { backend = "sqlite" }'));
  }
  const scope = scopeFor(ctx, 'model', 'the storage block');
  const body = decodeBody(block.body, SCHEMA, { what: 'the storage block', header: block.typeRange }, ctx.diags);
  const backend = readEnum(body.attrs.get('backend'), BACKENDS, scope, ctx.diags) ?? 'sqlite';
  const path = readString(body.attrs.get('path'), scope, ctx.diags);
  const connAttr = body.attrs.get('conn_string');
  const conn = readString(connAttr, scope, ctx.diags);
  const out: StorageBlock = { location: locationOf(block), backend };
  if (backend === 'sqlite') {
    // Go resolves a relative path from the config folder; so do we.
    if (path !== undefined && path !== '') out.path = isAbsolute(path) ? path : resolve(ctx.projectRoot, path);
  } else if (conn !== undefined && conn !== '') {
    out.connString = conn;
  } else if (connAttr === undefined) {
    ctx.diags.push(diagnosticAt(block.typeRange, 'error', 'GO001', 'storage with backend = "postgres" needs conn_string', 'add conn_string = "postgres://user@host/database" (or a variable holding it), or pass --db / SQUADRON_DATABASE_URL'));
  }
  return out;
}
