// The `notification { url, secret, events }` blocks of a mission (0..n; Go's proposal, PR #113):
// `squadron serve` POSTs each listed event of the mission's runs to `url`, signed like an incoming
// webhook (X-Squadron-Signature over "<t>.<body>" with `secret`), retried with backoff.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import { NOTIFICATION_EVENTS, type Notification, type NotificationEvent } from '../graph.js';
import { decodeBody, locationOf, type BlockSchema, type NestedBlockSpec } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { checkHttpUrl, readString, readStringList } from '../values.js';

export const NOTIFICATION_BLOCK: NestedBlockSpec = { labels: [] };

const SCHEMA: BlockSchema = { attributes: { url: { required: true }, secret: { required: true }, events: {} } };

export function loadNotifications(blocks: readonly Block[], scope: Scope, ctx: LoadContext): Notification[] {
  const out: Notification[] = [];
  blocks.forEach((block, index) => {
    const where = `${scope.where} notification[${index}]`;
    const body = decodeBody(block.body, SCHEMA, { what: where, header: block.typeRange }, ctx.diags);
    const urlAttr = body.attrs.get('url');
    const secretAttr = body.attrs.get('secret');
    const eventsAttr = body.attrs.get('events');
    const url = readString(urlAttr, scope, ctx.diags);
    const secret = readString(secretAttr, scope, ctx.diags);
    const events = readStringList(eventsAttr, scope, ctx.diags) ?? [...NOTIFICATION_EVENTS];
    if (url === undefined || secret === undefined || urlAttr === undefined || !checkHttpUrl(url, urlAttr.expr.range, ctx.diags)) return;
    if (secretAttr !== undefined && secret.length < 16) {
      ctx.diags.push(diagnosticAt(secretAttr.expr.range, 'error', 'SCH013', `${where}: secret must be at least 16 characters`, 'use a secret variable: secret = vars.notify_secret'));
      return;
    }
    const unknown = events.filter((e) => !(NOTIFICATION_EVENTS as readonly string[]).includes(e));
    if (unknown.length > 0 && eventsAttr !== undefined) {
      ctx.diags.push(diagnosticAt(eventsAttr.expr.range, 'error', 'SCH013', `${where}: unknown event ${JSON.stringify(unknown[0])}`, `events are ${NOTIFICATION_EVENTS.join(', ')}`));
      return;
    }
    out.push({ index, url, secret, events: events as NotificationEvent[], location: locationOf(block), range: block.typeRange });
  });
  return out;
}
