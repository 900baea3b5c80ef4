// The `trigger { webhook_path, secret, signature }` block of a mission (Go's syntax; at most one):
// `squadron serve` starts a run of the mission on a signed POST to /webhooks/<webhook_path>.
// As in Go, webhook_path defaults to the mission's name and paths are unique across missions; a
// trigger without a secret loads (a Go config works unchanged) but serve refuses its deliveries.
// `signature = "hmac"` (default) checks X-Squadron-Signature; "shared_secret" accepts Go's plain
// X-Webhook-Secret header (weaker: the secret travels with every request).

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { Trigger } from '../graph.js';
import { decodeBody, locationOf, type BlockSchema, type NestedBlockSpec } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { readEnum, readString } from '../values.js';

export const TRIGGER_BLOCK: NestedBlockSpec = { labels: [], max: 1 };

const SCHEMA: BlockSchema = { attributes: { webhook_path: {}, secret: {}, signature: {} } };

const PATH = /^\/?[A-Za-z0-9][A-Za-z0-9._\-/]{0,199}$/;

/** The trigger paths seen so far in one load, with their mission (Go: `webhook_path "…" conflicts with mission "…"`). */
const pathsOfLoad = new WeakMap<LoadContext, Map<string, string>>();

export function loadTrigger(block: Block | undefined, mission: string, scope: Scope, ctx: LoadContext): Trigger | undefined {
  if (block === undefined) return undefined;
  const where = `${scope.where} trigger`;
  const body = decodeBody(block.body, SCHEMA, { what: where, header: block.typeRange }, ctx.diags);
  const pathAttr = body.attrs.get('webhook_path');
  const secretAttr = body.attrs.get('secret');
  const path = pathAttr === undefined ? mission : readString(pathAttr, scope, ctx.diags);
  const secret = readString(secretAttr, scope, ctx.diags);
  const signature = readEnum(body.attrs.get('signature'), ['hmac', 'shared_secret'] as const, scope, ctx.diags) ?? 'hmac';
  if (path !== undefined && pathAttr !== undefined && (!PATH.test(path) || path.includes('..') || path.includes('//'))) {
    ctx.diags.push(diagnosticAt(pathAttr.expr.range, 'error', 'SCH013', `${where}: webhook_path must be a path of letters, digits, ".", "_", "-" and "/", got "${path}"`, 'e.g. webhook_path = "tickets/new"'));
    return undefined;
  }
  // Go accepts a short secret; it still works, so a config moved over keeps running, with a warning.
  if (secret !== undefined && secretAttr !== undefined && secret.length < 16) {
    ctx.diags.push(diagnosticAt(secretAttr.expr.range, 'warning', 'SCH013', `${where}: a secret shorter than 16 characters is easy to guess`, 'use a long random secret from a secret variable: secret = vars.webhook_secret'));
  }
  if (secretAttr === undefined) {
    ctx.diags.push(diagnosticAt(block.typeRange, 'warning', 'GO013', `${where} has no secret: squadron serve refuses its deliveries until one is set`, 'add secret = vars.webhook_secret (a secret variable) to sign deliveries'));
  }
  if (path === undefined || (secretAttr !== undefined && secret === undefined)) return undefined;
  const bare = path.replace(/^\//, '');
  const seen = pathsOfLoad.get(ctx) ?? new Map<string, string>();
  pathsOfLoad.set(ctx, seen);
  const other = seen.get(bare);
  if (other !== undefined && other !== mission) {
    ctx.diags.push(diagnosticAt(pathAttr?.expr.range ?? block.typeRange, 'error', 'SCH008', `${where}: webhook_path "/${bare}" conflicts with mission "${other}"`, 'give each trigger its own webhook_path'));
    return undefined;
  }
  seen.set(bare, mission);
  return { path: bare, ...(secret !== undefined ? { secret } : {}), signature, location: locationOf(block), range: block.typeRange };
}
