// /openapi.json, made from the route table so the document lists exactly the routes served.

import type { Route } from './routeTypes.js';

export function openApiDocument(routes: readonly Route[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const params = [...r.path.matchAll(/\{(\w+)\*?\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const responses: Record<string, unknown> =
      r.kind === 'stream'
        ? { '200': { description: 'server-sent events', content: { 'text/event-stream': {} } } }
        : { default: { description: 'JSON; errors as {error, error_code}', content: { 'application/json': {} } } };
    if (r.auth !== 'none') responses['401'] = { description: r.auth === 'token' ? 'missing, unknown or revoked bearer token' : 'missing or wrong signature' };
    (paths[r.path] ??= {})[r.method.toLowerCase()] = {
      summary: r.summary,
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(r.auth === 'token' ? {} : { security: [] }),
      ...(r.auth === 'signature' ? { description: 'Signed with X-Squadron-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">' } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'squadron serve', version: '1' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}
