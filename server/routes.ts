// The HTTP API as one table: method, path, what it does, and whether it needs a bearer token. The
// dispatcher, the auth check and /openapi.json all read this table, so a route cannot skip auth by
// being added somewhere else (SSE routes included).

import { z } from 'zod';
import { decide, getRun, listRuns, nextFires, zonedTime } from '../api/index.js';
import { decodePathSegment, HttpError, readJson, sendJson } from './http.js';
import { openApiDocument } from './openapi.js';
import { scheduleEntries } from './scheduler.js';
import type { Route, RouteContext } from './routeTypes.js';
import { streamEvents } from './sse.js';

/** The version of the JSON documents answered (the CLI's `schema_version`). */
const SCHEMA_VERSION = 1;

export type { ServerState, RouteContext, Route } from './routeTypes.js';

const StartBody = z.object({ mission: z.string().optional(), inputs: z.record(z.string(), z.unknown()).optional() }).strict();
const ResumeBody = z.object({ retry_failed: z.boolean().optional() }).strict();
const ApproveBody = z.object({ calls: z.array(z.string()).optional(), all: z.boolean().optional(), reason: z.string().optional() }).strict();
const DenyBody = z.object({ call: z.string().optional(), reason: z.string().min(1) }).strict();
const AnswerBody = z
  .object({ question: z.string().optional(), text: z.string().optional(), choices: z.array(z.string()).optional(), fields: z.record(z.string(), z.unknown()).optional(), decline: z.boolean().optional(), reason: z.string().optional() })
  .strict();

async function body<T>(ctx: RouteContext, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await readJson(ctx.req));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, 'usage', `invalid body: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'rejected'}`);
  }
  return parsed.data;
}

/** Mission inputs as the CLI's `-i key=value` text: strings as they are, anything else as JSON. */
export function inputsAsText(inputs: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

function who(ctx: RouteContext): string {
  return `api:${ctx.token?.name ?? 'unknown'}`;
}

export const routes: readonly Route[] = [
  { method: 'GET', path: '/healthz', summary: 'The process answers', auth: 'none', handle: async ({ res }) => sendJson(res, 200, { ok: true }) },
  {
    method: 'GET',
    path: '/readyz',
    summary: 'The database is open and the server takes work (503 while draining)',
    auth: 'none',
    handle: async ({ res, state }) => sendJson(res, state.ready() ? 200 : 503, { ready: state.ready() }),
  },
  { method: 'GET', path: '/openapi.json', summary: 'This API as an OpenAPI 3.1 document', auth: 'token', handle: async ({ res }) => sendJson(res, 200, openApiDocument(routes)) },
  {
    method: 'GET',
    path: '/v1/runs',
    summary: 'Stored runs, newest first (the rows of `squadron runs --json`)',
    auth: 'token',
    handle: async ({ res, query, state }) => {
      const limit = Math.min(Math.max(Number(query.get('limit') ?? '50') || 50, 1), 10_000);
      const mission = query.get('mission');
      sendJson(res, 200, { schema_version: SCHEMA_VERSION, runs: await listRuns(state.store, { limit, ...(mission ? { mission } : {}) }) });
    },
  },
  {
    method: 'POST',
    path: '/v1/runs',
    summary: 'Start a run of a mission of the served config; answers 202 with its id at once',
    auth: 'token',
    handle: async (ctx) => {
      const b = await body(ctx, StartBody);
      const id = await ctx.state.runner.start(ctx.state.project(), b.mission, inputsAsText(b.inputs ?? {}));
      sendJson(ctx.res, 202, { run_id: id });
    },
  },
  {
    method: 'GET',
    path: '/v1/runs/{id}',
    summary: 'One run (the document of `squadron inspect --json`)',
    auth: 'token',
    handle: async ({ res, params, state }) => {
      const doc = await getRun(state.store, params['id']!);
      if (!doc) throw new HttpError(404, 'not_found', `no run ${params['id']}`);
      sendJson(res, 200, { schema_version: SCHEMA_VERSION, ...doc });
    },
  },
  {
    method: 'POST',
    path: '/v1/runs/{id}/cancel',
    summary: 'Stop a running run, as Ctrl-C does (status interrupted, resumable), whichever process drives it',
    auth: 'token',
    handle: async (ctx) => {
      const { res, params, state } = ctx;
      const id = params['id']!;
      if (state.runner.cancel(id)) return sendJson(res, 202, { run_id: id, status: 'stopping' });
      const run = await state.store.runs.get(id);
      if (!run) throw new HttpError(404, 'not_found', `no run ${id}`);
      if (run.status !== 'running') throw new HttpError(409, 'refused', `run ${id} is ${run.status}, not running`);
      // Driven elsewhere (another server, squadron run, a worker): its runner reads the request at its next heartbeat.
      await state.store.runCancels.request(id, who(ctx));
      sendJson(res, 202, { run_id: id, status: 'stopping' });
    },
  },
  {
    method: 'POST',
    path: '/v1/runs/{id}/resume',
    summary: 'Continue a stopped or crashed run in the background (`squadron resume`)',
    auth: 'token',
    handle: async (ctx) => {
      const b = await body(ctx, ResumeBody);
      const id = ctx.params['id']!;
      if (!(await ctx.state.store.runs.get(id))) throw new HttpError(404, 'not_found', `no run ${id}`);
      await ctx.state.runner.resume(id, { retryFailed: Boolean(b.retry_failed), reason: 'api' });
      sendJson(ctx.res, 202, { run_id: id });
    },
  },
  {
    method: 'POST',
    path: '/v1/runs/{id}/approve',
    summary: 'Approve tool calls the run waits on (then resume it)',
    auth: 'token',
    handle: async (ctx) => {
      const b = await body(ctx, ApproveBody);
      const decided = await decide(ctx.state.store, ctx.params['id']!, { kind: 'approve', ids: b.calls ?? [], all: Boolean(b.all), ...(b.reason ? { reason: b.reason } : {}) }, who(ctx));
      sendDecided(ctx, decided);
    },
  },
  {
    method: 'POST',
    path: '/v1/runs/{id}/deny',
    summary: 'Deny a tool call the run waits on (then resume it)',
    auth: 'token',
    handle: async (ctx) => {
      const b = await body(ctx, DenyBody);
      const decided = await decide(ctx.state.store, ctx.params['id']!, { kind: 'deny', ...(b.call ? { id: b.call } : {}), reason: b.reason }, who(ctx));
      sendDecided(ctx, decided);
    },
  },
  {
    method: 'POST',
    path: '/v1/runs/{id}/answer',
    summary: 'Answer (or decline) a question the run waits on (then resume it)',
    auth: 'token',
    handle: async (ctx) => {
      const b = await body(ctx, AnswerBody);
      const id = b.question ? { id: b.question } : {};
      const given = [b.text !== undefined, b.choices !== undefined, b.fields !== undefined, Boolean(b.decline)].filter(Boolean).length;
      if (given !== 1) throw new HttpError(400, 'usage', 'give exactly one of: text, choices, fields, decline');
      const action = b.decline
        ? ({ kind: 'decline', ...id, ...(b.reason ? { reason: b.reason } : {}) } as const)
        : ({ kind: 'answer', ...id, answer: b.text !== undefined ? { text: b.text } : b.choices !== undefined ? { choices: b.choices } : { fields: b.fields ?? {} } } as const);
      const decided = await decide(ctx.state.store, ctx.params['id']!, action, who(ctx));
      sendDecided(ctx, decided);
    },
  },
  {
    method: 'GET',
    path: '/v1/runs/{id}/events',
    summary: "One run's events as server-sent events, live; resumable with Last-Event-ID",
    auth: 'token',
    kind: 'stream',
    handle: async (ctx) => {
      const id = ctx.params['id']!;
      // A webhook delivery's run id is answered with its 202, before the run is stored (it waits its turn, --max-runs).
      if (!(await ctx.state.store.runs.get(id)) && !(await ctx.state.store.webhookDeliveries.isAccepted(id))) throw new HttpError(404, 'not_found', `no run ${id}`);
      await streamEvents(ctx, id);
    },
  },
  {
    method: 'GET',
    path: '/v1/schedules',
    summary: "The missions' schedules: policies, paused or not, the next three fire times",
    auth: 'token',
    handle: async ({ res, state }) => {
      const paused = await state.store.schedules.paused();
      const now = new Date(state.now());
      const schedules = [];
      for (const { id, mission, schedule } of scheduleEntries(state.project())) {
        const fires = await state.store.schedules.recentFires(id, 1);
        schedules.push({
          id,
          mission: mission.name,
          spec: schedule.spec,
          cron: schedule.cron,
          timezone: schedule.timezone,
          inputs: schedule.inputs,
          overlap: schedule.overlap,
          catchup_window_ms: schedule.catchupWindowMs,
          pause_on_failure: schedule.pauseOnFailure,
          paused: paused.has(id),
          ...(paused.has(id) ? { paused_because: paused.get(id) } : {}),
          next_fires: nextFires(schedule, now, 3).map((d) => ({ at: d.toISOString(), local: zonedTime(d, schedule.timezone) })),
          last_fire: fires[0] ? { at: fires[0].fireAt, run_id: fires[0].runId ?? null } : null,
        });
      }
      sendJson(res, 200, { schema_version: SCHEMA_VERSION, schedules });
    },
  },
  {
    method: 'POST',
    path: '/v1/schedules/{id}/trigger',
    summary: 'Start a run of the schedule now (202 {run_id})',
    auth: 'token',
    handle: async ({ res, params, state }) => {
      const entry = scheduleEntry(state, params['id']!);
      const fired = await state.scheduler.triggerNow(entry);
      if (!fired) throw new HttpError(409, 'refused', `schedule ${entry.id} could not start a run (see the server log)`);
      if ('held' in fired) {
        if (fired.held === 'skipped') throw new HttpError(409, 'overlap', `a run of schedule ${entry.id} is still going (overlap = "${entry.schedule.overlap}")`);
        return sendJson(res, 202, { buffered: true });
      }
      sendJson(res, 202, { run_id: fired.runId });
    },
  },
  {
    method: 'POST',
    path: '/v1/schedules/{id}/pause',
    summary: 'Pause a schedule (on every server of the database)',
    auth: 'token',
    handle: async ({ res, params, state }) => {
      const { id } = scheduleEntry(state, params['id']!);
      await state.store.schedules.pause(id, 'paused through the API');
      sendJson(res, 200, { id, paused: true });
    },
  },
  {
    method: 'POST',
    path: '/v1/schedules/{id}/resume',
    summary: 'Resume a paused schedule (its next fire is the next time due; missed ones are not made up)',
    auth: 'token',
    handle: async ({ res, params, state }) => {
      const { id } = scheduleEntry(state, params['id']!);
      await state.store.schedules.unpause(id);
      sendJson(res, 200, { id, paused: false });
    },
  },
  { method: 'POST', path: '/webhooks/{path*}', summary: "A mission's trigger: signed JSON inputs start a run (202 {run_id})", auth: 'signature', handle: async (ctx) => (await import('./webhook.js')).handleWebhook(ctx) },
  { method: 'GET', path: '/v1/events', summary: "Every run's events as server-sent events, live; resumable with Last-Event-ID", auth: 'token', kind: 'stream', handle: async (ctx) => streamEvents(ctx, undefined) },
];

/** The route table's patterns, split into segments once (a webhook, the busiest route, is matched last). */
const compiled = routes.map((route) => ({ route, segments: route.path.split('/') }));

/** The route for a method and path, with its parameters; `methods` lists the path's methods when only the method is wrong. */
export function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } | { methods: string[] } | undefined {
  const methods: string[] = [];
  const parts = path.split('/');
  for (const { route, segments } of compiled) {
    const params = matchPath(segments, parts);
    if (!params) continue;
    if (route.method === method) return { route, params };
    methods.push(route.method);
  }
  return methods.length > 0 ? { methods } : undefined;
}

/** `{name}` takes one segment, a last `{name*}` the rest of the path (at least one segment). */
function matchPath(want: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (parts.length < want.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const seg = want[i]!;
    const part = parts[i]!;
    if (seg.endsWith('*}')) {
      const rest = parts.slice(i);
      if (rest.includes('')) return undefined;
      params[seg.slice(1, -2)] = decodePathSegment(rest.join('/'));
      return params;
    }
    if (seg.startsWith('{')) {
      if (part === '') return undefined;
      params[seg.slice(1, -1)] = decodePathSegment(part);
    } else if (seg !== part) return undefined;
  }
  return parts.length === want.length ? params : undefined;
}

/** What approve, deny and answer answer: each request decided, with its new status. */
function sendDecided(ctx: { res: Parameters<typeof sendJson>[0] }, decided: readonly { id: string; status: string }[]): void {
  sendJson(ctx.res, 200, { decided: decided.map((r) => ({ id: r.id, status: r.status })) });
}

/** The schedule of the current config with this id; a 404 when there is none. */
function scheduleEntry(state: { project: () => Parameters<typeof scheduleEntries>[0] }, id: string): ReturnType<typeof scheduleEntries>[number] {
  const entry = scheduleEntries(state.project()).find((e) => e.id === id);
  if (!entry) throw new HttpError(404, 'not_found', `no schedule ${id} (ids are <mission>.<index>)`);
  return entry;
}
