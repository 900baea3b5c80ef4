// The `trigger { webhook_path, secret, signature }` block of a mission (Go's syntax; at most one):
// `squadron serve` starts a run of the mission on a signed POST to /webhooks/<webhook_path>.
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

export function loadTrigger(block: Block | undefined, scope: Scope, ctx: LoadContext): Trigger | undefined {
  if (block === undefined) return undefined;
  const where = `${scope.where} trigger`;
  const body = decodeBody(block.body, SCHEMA, { what: where, header: block.typeRange }, ctx.diags);
  const pathAttr = body.attrs.get('webhook_path');
  const secretAttr = body.attrs.get('secret');
  // As in Go, webhook_path defaults to the mission's name.
  const path = pathAttr === undefined ? scope.where.replace(/^mission "(.*)"$/, '$1') : readString(pathAttr, scope, ctx.diags);
  const secret = readString(secretAttr, scope, ctx.diags);
  if (path !== undefined && clashes(path, scope.where, block, ctx)) return undefined;
  if (secretAttr === undefined) {
    // Go served such a webhook unsigned; here no unsigned request starts a run, so the trigger is off.
    ctx.diags.push(
      diagnosticAt(block.typeRange, 'warning', 'GO013', `${where} has no secret: it is off (an unsigned webhook would let anyone start runs)`, 'add secret = vars.webhook_secret (a long random secret variable) to turn it on'),
    );
    return undefined;
  }
  const signature = readEnum(body.attrs.get('signature'), ['hmac', 'shared_secret'] as const, scope, ctx.diags) ?? 'hmac';
  if (path !== undefined && pathAttr !== undefined && (!PATH.test(path) || path.includes('..') || path.includes('//'))) {
    ctx.diags.push(diagnosticAt(pathAttr.expr.range, 'error', 'SCH013', `${where}: webhook_path must be a path of letters, digits, ".", "_", "-" and "/", got "${path}"`, 'e.g. webhook_path = "tickets/new"'));
    return undefined;
  }
  // Go accepts a short secret; it still works, so a config moved over keeps running, with a warning.
  if (secret !== undefined && secretAttr !== undefined && secret.length < 16) {
    ctx.diags.push(diagnosticAt(secretAttr.expr.range, 'warning', 'SCH013', `${where}: a secret shorter than 16 characters is easy to guess`, 'use a long random secret from a secret variable: secret = vars.webhook_secret'));
  }
  if (path === undefined || secret === undefined) return undefined;
  return { path: path.replace(/^\//, ''), secret, signature, location: locationOf(block), range: block.typeRange };
}

/** Webhook paths are unique across missions (as in Go): a second one is an error naming the first. */
function clashes(path: string, where: string, block: Block, ctx: LoadContext): boolean {
  const key = path.replace(/^\//, '');
  const taken = (ctx.symbols.webhookPaths ??= new Map<string, string>());
  const first = taken.get(key);
  if (first === undefined) {
    taken.set(key, where);
    return false;
  }
  ctx.diags.push(diagnosticAt(block.typeRange, 'error', 'SCH008', `${where} trigger: webhook_path "${path}" is the webhook of ${first} too`, 'give each mission its own webhook_path'));
  return true;
}
