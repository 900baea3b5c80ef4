// `squadron serve`: the HTTP API over one database and one config, in the foreground. It resumes
// runs that crashed (at start and every few seconds), drains on SIGTERM, reloads the config on SIGHUP.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { openProject, openRunStore, recoverableRuns, SquadronError, verifyToken, type LoadedProject } from '../api/index.js';
import { HttpError, sendError } from './http.js';
import { createLog, errorText, type Log } from './log.js';
import { matchRoute, type ServerState } from './routes.js';
import { RunPool } from './runPool.js';
import { Scheduler } from './scheduler.js';
import { Notifier } from './notifier.js';
import { ConsoleSite } from './console.js';
import { AgentEndpoints } from './agentEndpoints.js';
import { startPendingDeliveries } from './deliveries.js';
import { groupCommit } from './groupCommit.js';

export interface ServeOptions {
  /** The config, loaded (and its errors shown) by the caller. */
  project: LoadedProject;
  db: string;
  host: string;
  port: number;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** How long SIGTERM waits for runs in flight before leaving them to resume (ms). */
  drainMs: number;
  /** How often crashed runs are looked for (ms). */
  recoverEveryMs: number;
  /** Runs driven at once (`--max-runs`); more wait their turn. */
  maxRuns: number;
  /** Threads that execute runs (default: one per core beyond the HTTP thread's, 1 to 4). */
  runThreads?: number;
  /** `squadron ui`: print a one-time login URL; no schedules fired, no crashed runs taken over. */
  ui?: boolean;
}

/** Serves until SIGTERM or SIGINT; resolves with the exit code. */
export async function serve(opts: ServeOptions): Promise<number> {
  const log = createLog(opts.stderr);
  let project: LoadedProject = opts.project;
  // The server's own store outlives a failed call (the database busy, say): its loops try again.
  const store = await openRunStore(opts.db, { service: true });
  const closing = new AbortController();
  const now = testClock(opts.env);
  const notifyBase = Number(opts.env['SQUADRON_NOTIFY_BASE_MS'] ?? '1000');
  const notifier = new Notifier({ store, project: () => project, log, now, baseDelayMs: Number.isFinite(notifyBase) && notifyBase >= 0 ? notifyBase : 1000, stop: closing.signal });
  // Runs execute on run threads, so the HTTP thread answers while they load and step.
  const runner = new RunPool({
    db: opts.db,
    // A console attached to a database alone (detachedProject) has no config file to load.
    ...(project.graph.files.length > 0 ? { configPath: project.path } : {}),
    env: opts.env,
    log,
    maxRuns: opts.maxRuns,
    threads: opts.runThreads ?? Math.max(1, Math.min(4, availableParallelism() - 1, opts.maxRuns)),
    notify: (runId, type, data) => notifier.notify(runId, type, data),
  });
  const scheduler = new Scheduler({ store, runner, project: () => project, now, log, stop: closing.signal });
  const state: ServerState = { store, writes: groupCommit(store), runner, scheduler, project: () => project, ready: () => !closing.signal.aborted, closing: closing.signal, now, log };
  // The web console at `/` (its sessions also open the /v1 routes).
  const site = new ConsoleSite(state);

  let early: string | undefined;
  let drainOn: ((signal: string) => void) | undefined;
  const onTerm = (): void => (drainOn ? drainOn('SIGTERM') : void (early ??= 'SIGTERM'));
  const onInt = (): void => (drainOn ? drainOn('SIGINT') : void (early ??= 'SIGINT'));
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  // Signal handlers go in before the address is printed: a supervisor may signal as soon as it reads it.
  const reload = (): void => {
    try {
      project = openProject(project.path, { env: opts.env });
      runner.reloaded();
      log('info', 'config reloaded', { config: project.path });
    } catch (error) {
      const first = error instanceof SquadronError ? error.diagnostics.find((d) => d.severity === 'error') : undefined;
      const where = first ? `${first.file}:${first.line}:${first.column}: error[${first.code}]: ${first.message}` : errorText(error);
      log('error', 'config reload refused; keeping the previous config', { error: where });
    }
  };
  process.on('SIGHUP', reload);

  await runner.ready();
  const agents = new AgentEndpoints(state, opts.env, SERVER_VERSION);
  const server = createServer((req, res) => void handle(state, log, req, res, agents, site));
  await new Promise<void>((listening, failed) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      // A port in use or not allowed is the user's to change: one line and exit 2, not an internal error.
      const why = error.code === 'EADDRINUSE' ? 'the address is already in use' : error.code === 'EACCES' ? 'permission denied' : undefined;
      failed(why ? new SquadronError('usage', `cannot listen on ${opts.host}:${opts.port}: ${why}; pick another --port or --host`) : error);
    });
    server.listen(opts.port, opts.host, () => listening());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  opts.stdout.write(`squadron ${opts.ui ? 'ui' : 'serve'} listening on ${url}\n`);
  if (opts.ui) opts.stdout.write(`open the console (this link logs in once): ${url}/login?token=${site.auth.issueOneTimeToken()}\n`);
  log('info', 'listening', { url, db: store.path, config: project.path });

  // Crashed runs: at start, then every few seconds (a run whose runner died while we run).
  let recovering = false;
  const recover = async (): Promise<void> => {
    if (recovering || closing.signal.aborted) return;
    recovering = true;
    try {
      // All at once: each resume loads its config and opens the database before it starts.
      await startPendingDeliveries(state, log);
      const ids = (await recoverableRuns(store)).filter((id) => !runner.isDriving(id));
      await Promise.all(
        ids.map((id) => (closing.signal.aborted ? undefined : runner.resume(id, { reason: 'recovered after a crash' }).catch((error: unknown) => log('warn', 'could not recover run', { run_id: id, error: errorText(error) })))),
      );
    } catch (error) {
      log('error', 'recovery pass failed', { error: errorText(error) });
    } finally {
      recovering = false;
    }
  };
  if (!opts.ui) void recover();
  const recoverTimer = setInterval(() => void (opts.ui ? undefined : recover()), opts.recoverEveryMs);
  if (!opts.ui) void scheduler.tick();
  const scheduleTimer = setInterval(() => void (opts.ui ? undefined : scheduler.tick()), 250);

  const code = await new Promise<number>((stopped) => {
    drainOn = (signal: string): void => {
      if (closing.signal.aborted) return;
      closing.abort();
      clearInterval(recoverTimer);
      clearInterval(scheduleTimer);
      log('info', 'draining', { signal, runs: runner.count, within_ms: opts.drainMs });
      server.close();
      void agents.close();
      server.closeIdleConnections();
      void runner.drain(opts.drainMs).then((left) => {
        log('info', 'stopped', { runs_left_to_resume: left });
        stopped(0);
      });
    };
    if (early !== undefined) drainOn(early);
  });
  process.off('SIGTERM', onTerm);
  process.off('SIGINT', onInt);
  process.off('SIGHUP', reload);
  server.closeAllConnections();
  await runner.close();
  // Runs left in flight keep their `running` status; their leases lapse with this process, and the
  // next server (or `squadron resume`) continues them.
  if (runner.count === 0) await store.close();
  return code;
}

/** The version the MCP server and the agent cards announce. */
const SERVER_VERSION = '0.1.0';

/** SQUADRON_CLOCK=<ISO time or ms>: the server's clock starts there (tests of signature windows); else the real clock. */
function testClock(env: NodeJS.ProcessEnv): () => number {
  const raw = env['SQUADRON_CLOCK'];
  if (raw === undefined || raw === '') return Date.now;
  const start = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(start)) return Date.now;
  const offset = start - Date.now();
  return () => Date.now() + offset;
}

async function handle(state: ServerState, log: Log, req: IncomingMessage, res: ServerResponse, agents: AgentEndpoints, site: ConsoleSite): Promise<void> {
  const started = performance.now();
  const url = new URL(req.url ?? '/', 'http://localhost');
  let status = 200;
  try {
    // MCP (/mcp) and A2A: their own protocols, behind the same tokens (server/agentEndpoints.ts); then
    // the console's pages and assets (server/console.ts).
    if ((await agents.handle(req, res, url)) || (await site.handle(state, req, res, url))) {
      log('info', 'request', { method: req.method, path: url.pathname, status: res.statusCode, ms: Math.round(performance.now() - started) });
      return;
    }
    const found = matchRoute(req.method ?? 'GET', url.pathname);
    if (!found) throw new HttpError(404, 'not_found', `no route ${url.pathname}`);
    if ('methods' in found) {
      res.setHeader('allow', found.methods.join(', '));
      throw new HttpError(405, 'usage', `${req.method} is not allowed on ${url.pathname}`);
    }
    const { route, params } = found;
    let token;
    if (route.auth === 'token') {
      const header = req.headers.authorization ?? '';
      const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      token = bearer ? await verifyToken(state.store, bearer) : await site.sessionFor(req);
      if (!token) {
        res.setHeader('www-authenticate', 'Bearer');
        throw new HttpError(401, 'unauthorized', bearer ? 'unknown or revoked token' : 'a bearer token is required (squadron token create)');
      }
    }
    if (!state.ready() && route.method === 'POST') throw new HttpError(503, 'draining', 'the server is shutting down');
    await route.handle({ req, res, params, query: url.searchParams, state, ...(token ? { token } : {}) });
    status = res.statusCode;
  } catch (error) {
    if (res.headersSent) {
      res.end();
      status = res.statusCode;
    } else status = sendError(res, error);
    if (status >= 500) log('error', 'request failed', { error: errorText(error) });
  }
  log('info', 'request', { method: req.method, path: url.pathname, status, ms: Math.round(performance.now() - started) });
}

