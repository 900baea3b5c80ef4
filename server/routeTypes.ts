// The words of the server's route table: what a route is, what a handler is given, and the state the
// server shares with every handler. Apart from routes.ts so the pieces a route uses (the OpenAPI
// document, the event stream, the console) can name them without importing the table.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoadedProject, RunStore, TokenRow } from '../api/index.js';
import type { GroupCommit } from './groupCommit.js';
import type { Log } from './log.js';
import type { RunPool } from './runPool.js';
import type { Scheduler } from './scheduler.js';

export interface ServerState {
  store: RunStore;
  /** Writes that answer a request (a webhook delivery) or follow one: one transaction per turn of the event loop. */
  writes: GroupCommit;
  runner: RunPool;
  scheduler: Scheduler;
  /** The config as last loaded (SIGHUP replaces it; runs in flight keep theirs). */
  project: () => LoadedProject;
  ready: () => boolean;
  /** Aborted when the server drains: live streams end. */
  closing: AbortSignal;
  /** The clock webhook signatures are checked against (SQUADRON_CLOCK in tests). */
  now: () => number;
  log: Log;
}

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
  token?: TokenRow;
  state: ServerState;
}

export interface Route {
  method: 'GET' | 'POST';
  /** `{name}` segments are parameters. */
  path: string;
  summary: string;
  /** `signature`: a webhook, proven by its trigger's signature instead of a token. */
  auth: 'token' | 'none' | 'signature';
  /** `stream`: answers server-sent events. */
  kind?: 'json' | 'stream';
  handle: (ctx: RouteContext) => Promise<void>;
}
