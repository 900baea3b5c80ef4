// The web console at `/` of `squadron serve` (and `squadron ui`): the login page, the built pages
// (dist/console, made by `npm run build`), and the JSON the pages read besides the /v1 API. Without a
// session nothing but the login page is served; the /v1 routes accept the same session cookie.

import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { packageRoot } from '../core/assets.js';
import { inbox, listRunsPage, runLedger, storedResult, taskSessions, transcriptPage, triggerDeliveries, usageByModel } from '../api/index.js';
import { ConsoleAuth, sameOrigin, sessionCookie } from './consoleAuth.js';
import { decodePathSegment, HttpError, readBody, sendJson } from './http.js';
import { loginPage } from './consoleLogin.js';
import type { ServerState } from './routeTypes.js';
import { scheduleEntries } from './scheduler.js';

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.html': 'text/html; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** Content-Security-Policy of every console page: our own scripts and styles only, no framing. */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export class ConsoleSite {
  readonly auth: ConsoleAuth;
  private readonly root = join(packageRoot(), 'dist', 'console');

  constructor(state: Pick<ServerState, 'store' | 'now'>) {
    this.auth = new ConsoleAuth(state.store, state.now);
  }

  /** true when the request was the console's (answered here); false leaves it to the API's routes. */
  async handle(state: ServerState, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/login') {
      if (method === 'GET') await this.loginGet(req, res, url);
      else if (method === 'POST') await this.loginPost(req, res);
      else throw new HttpError(405, 'usage', `${method} is not allowed on /login`);
      return true;
    }
    if (path === '/logout' && method === 'POST') {
      this.auth.logout(req);
      redirect(res, '/login', sessionCookie(undefined));
      return true;
    }
    if (path !== '/' && !path.startsWith('/console/')) return false;
    const who = await this.auth.sessionOf(req);
    if (!who) {
      if (path.startsWith('/console/api/')) throw new HttpError(401, 'unauthorized', 'log in to the console first');
      redirect(res, '/login');
      return true;
    }
    if (path === '/') await this.file(res, 'index.html');
    else if (path.startsWith('/console/api/')) {
      if (method !== 'GET') throw new HttpError(405, 'usage', `${method} is not allowed on ${path}`);
      await consoleApi(state, path.slice('/console/api/'.length).split('/').map(decodePathSegment), url.searchParams, res);
    } else await this.file(res, path.slice('/console/'.length));
    return true;
  }

  /** A cookie session stands for a bearer token on the /v1 routes (POSTs only from the console's own origin). */
  async sessionFor(req: IncomingMessage): Promise<ReturnType<ConsoleAuth['sessionOf']>> {
    const who = await this.auth.sessionOf(req);
    if (who && req.method === 'POST' && !sameOrigin(req)) throw new HttpError(403, 'forbidden', 'a console session works only from the console itself');
    return who;
  }

  private async loginGet(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = url.searchParams.get('token');
    if (token) {
      const session = await this.auth.login(token);
      if (session) return redirect(res, '/', sessionCookie(session));
      return page(res, 401, loginPage('This login link was used already or is not valid. Ask `squadron ui` for a new one, or enter a token.'));
    }
    if (await this.auth.sessionOf(req)) return redirect(res, '/');
    page(res, 200, loginPage());
  }

  private async loginPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!sameOrigin(req)) throw new HttpError(403, 'forbidden', 'log in from the console page');
    const form = new URLSearchParams((await readBody(req, 8192)).toString('utf8'));
    const session = await this.auth.login((form.get('token') ?? '').trim());
    if (session) return redirect(res, '/', sessionCookie(session));
    page(res, 401, loginPage('Unknown, revoked or used token.'));
  }

  private async file(res: ServerResponse, rel: string): Promise<void> {
    const full = normalize(join(this.root, rel));
    if (!full.startsWith(this.root + sep)) throw new HttpError(404, 'not_found', 'no such file');
    let body: Buffer;
    try {
      body = await readFile(full);
    } catch {
      if (rel === 'index.html') throw new HttpError(500, 'internal', 'the console is not built (npm run build)');
      throw new HttpError(404, 'not_found', `no console file ${rel}`);
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(full)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': rel.startsWith('assets/') ? 'private, max-age=31536000, immutable' : 'no-store',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    });
    res.end(body);
  }
}

function redirect(res: ServerResponse, to: string, cookie?: string): void {
  res.writeHead(303, { location: to, 'cache-control': 'no-store', ...(cookie ? { 'set-cookie': cookie } : {}) });
  res.end();
}

function page(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'same-origin' });
  res.end(html);
}

function int(value: string | null, fallback: number, max: number): number {
  const n = Number(value ?? fallback);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, max) : fallback;
}

/** GET /console/api/...: runs, run/{id}/sessions?task=, run/{id}/transcript/{session}?from=&limit=, run/{id}/ledger, run/{id}/models, run/{id}/results/{session}/{handle}, inbox, schedules/{id}/fires, triggers, deliveries?path=&limit=. */
async function consoleApi(state: ServerState, parts: string[], q: URLSearchParams, res: ServerResponse): Promise<void> {
  const [head, id, what, sub] = parts;
  if (head === 'runs' && id === undefined) {
    const opt = (k: string): Record<string, string> => (q.get(k) ? { [k]: q.get(k)! } : {});
    const page = await listRunsPage(state.store, { limit: Math.max(1, int(q.get('limit'), 100, 500)), offset: int(q.get('offset'), 0, 1_000_000), ...opt('mission'), ...opt('status'), ...opt('since'), ...opt('until') });
    const missions = [...new Set([...state.project().graph.missions.map((m) => m.name), ...page.missions])].sort();
    return sendJson(res, 200, { ...page, missions });
  }
  if (head === 'runs' && id !== undefined) {
    if (!(await state.store.runs.get(id))) throw new HttpError(404, 'not_found', `no run ${id}`);
    if (what === 'sessions') return sendJson(res, 200, { sessions: await taskSessions(state.store, id, q.get('task') ?? '') });
    if (what === 'ledger') return sendJson(res, 200, { calls: await runLedger(state.store, id) });
    if (what === 'results' && sub !== undefined && parts[4] !== undefined) {
      const got = await storedResult(state.store, id, sub, parts[4]);
      if (!got) throw new HttpError(404, 'not_found', `no stored result ${parts[4]} in session ${sub} of run ${id}`);
      return sendJson(res, 200, got);
    }
    if (what === 'models') return sendJson(res, 200, { models: await usageByModel(state.store, id) });
    if (what === 'transcript' && sub !== undefined) {
      const got = await transcriptPage(state.store, id, sub, Math.max(1, int(q.get('from'), 1, Number.MAX_SAFE_INTEGER)), Math.max(1, int(q.get('limit'), 100, 500)));
      if (!got) throw new HttpError(404, 'not_found', `no session ${sub} in run ${id}`);
      return sendJson(res, 200, got);
    }
  }
  if (head === 'inbox' && id === undefined) return sendJson(res, 200, { runs: await inbox(state.store) });
  if (head === 'schedules' && id !== undefined && what === 'fires') {
    if (!scheduleEntries(state.project()).some((e) => e.id === id)) throw new HttpError(404, 'not_found', `no schedule ${id}`);
    const fires = await state.store.schedules.recentFires(id, int(q.get('limit'), 10, 100));
    return sendJson(res, 200, { fires: fires.map((f) => ({ at: f.fireAt, run_id: f.runId ?? null })) });
  }
  if (head === 'triggers' && id === undefined) {
    return sendJson(res, 200, { triggers: state.project().graph.missions.flatMap((m) => (m.trigger ? [{ mission: m.name, path: `/webhooks/${m.trigger.path}`, key: m.trigger.path }] : [])) });
  }
  if (head === 'deliveries' && id === undefined) {
    // A trigger's path as the config writes it (without /webhooks/); only a trigger of the config.
    const path = q.get('path') ?? '';
    if (!state.project().graph.missions.some((m) => m.trigger?.path === path)) throw new HttpError(404, 'not_found', `no trigger at /webhooks/${path}`);
    return sendJson(res, 200, { deliveries: await triggerDeliveries(state.store, path, Math.max(1, int(q.get('limit'), 20, 100))) });
  }
  throw new HttpError(404, 'not_found', `no console route /console/api/${parts.join('/')}`);
}
