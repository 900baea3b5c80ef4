// A fake model server for tests and benches: a real HTTP server on 127.0.0.1 (port 0) speaking the
// Anthropic Messages and OpenAI Chat Completions wire formats, so the real SDK code paths run.
// It imports nothing from vitest, so the compiled copy in dist/test/support/ serves .mjs benches.
//
//   const server = await startFakeModelServer({ respond: (req, ctx) => ({ text: 'hello' }) });
//   server.url               http://127.0.0.1:<port>  (Anthropic SDK baseURL; also server.anthropicBaseURL)
//   server.openaiBaseURL     server.url + '/v1'        (OpenAI SDK baseURL)
//   server.url is also the Gemini SDK's baseUrl (routes /v1beta/models/{model}:generateContent and
//                            :streamGenerateContent, see fakeGeminiWire.ts)
//   server.requests          every request received: { api, n, path, stream, body, headers, canonical }
//                            where canonical = { model, system, messages, tools } in runtime shapes
//   server.inFlight / server.maxInFlight   concurrency observed
//   server.onRequest = (n, req) => {}      runs when request n (1-based) arrives, before respond()
//   server.errors            messages of respond() calls that threw, and of requests refused because
//                            a tool marked strict has a schema the real API would refuse, or a tool
//                            call goes without its result (fakeToolPairing.ts) (all 400)
//   await server.close()
//
// Routes: POST /v1/messages (Anthropic), POST /v1/chat/completions (OpenAI) and POST /v1/responses
// (OpenAI Responses, reasoning items checked on their way back: fakeResponsesWire.ts), streaming when the
// body says `stream: true` (SSE), JSON otherwise. respond() returns a FakeReply (see fakeTypes.ts):
// text, tool calls (or raw malformed arguments), thinking, a stop reason such as max_tokens, usage,
// latency (`delayMs`, `chunkDelayMs`), or a failure: `{ status: 429, retryAfter: 1 }`,
// `{ status: 500 }`, `{ status: 529 }`, `{ drop: true }` (socket destroyed mid-stream),
// `{ streamError: { type: 'overloaded_error' } }`. For scripts per conversation, see fakeScript.ts.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { toolPairingProblems } from './fakeToolPairing.js';
import {
  anthropicErrorBody,
  anthropicMessage,
  anthropicStreamErrorEvent,
  anthropicStreamEvents,
  canonicalFromAnthropic,
} from './fakeAnthropicWire.js';
import {
  canonicalFromOpenAI,
  openaiCompletion,
  openaiErrorBody,
  openaiStreamErrorEvent,
  openaiStreamEvents,
} from './fakeOpenAIWire.js';
import { canonicalFromGemini, geminiApi, geminiErrorBody, geminiRequestProblems, geminiResponse, geminiStreamErrorEvent, geminiStreamEvents, geminiStreams } from './fakeGeminiWire.js';
import { canonicalFromResponses, ReasoningLedger, responsesResponse, responsesStreamErrorEvent, responsesStreamEvents } from './fakeResponsesWire.js';
import { errorTypeFor, planTurn } from './fakeTurnPlan.js';
import { strictToolProblems } from './fakeStrictSchema.js';
import type { FakeApi, FakeReply, FakeRequest } from './fakeTypes.js';
import { closeServer, listenLocal, readBody } from './localServer.js';

export type { FakeApi, FakeReply, FakeRequest, FakeToolCall, FakeThinking, FakeCanonicalRequest } from './fakeTypes.js';

export interface FakeRespondContext {
  server: FakeModelServer;
}

export interface FakeModelServerOptions {
  respond: (request: FakeRequest, context: FakeRespondContext) => FakeReply | Promise<FakeReply>;
}

export interface FakeModelServer {
  readonly url: string;
  readonly anthropicBaseURL: string;
  readonly openaiBaseURL: string;
  readonly requests: FakeRequest[];
  readonly errors: string[];
  readonly inFlight: number;
  readonly maxInFlight: number;
  onRequest: ((n: number, request: FakeRequest) => void) | undefined;
  close(): Promise<void>;
}

const ROUTES: Record<string, FakeApi> = { '/v1/messages': 'anthropic', '/v1/chat/completions': 'openai', '/v1/responses': 'responses' };

export async function startFakeModelServer(options: FakeModelServerOptions): Promise<FakeModelServer> {
  let inFlight = 0;
  let maxInFlight = 0;
  let count = 0;
  const requests: FakeRequest[] = [];
  const errors: string[] = [];
  const reasoning = new ReasoningLedger();

  const httpServer: Server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const api = req.method === 'POST' ? (ROUTES[path] ?? geminiApi(path)) : undefined;
    const raw = await readBody(req);
    if (!api) return sendJson(res, 404, { error: { type: 'not_found_error', message: `fake model server: no route ${req.method} ${path}` } });
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, errorBody(api, 'invalid_request_error', 'fake model server: body is not a JSON object'));
    }
    const request: FakeRequest = {
      api,
      n: ++count,
      path,
      stream: api === 'gemini' ? geminiStreams(path) : body['stream'] === true,
      body,
      headers: flattenHeaders(req),
      canonical:
        api === 'anthropic' ? canonicalFromAnthropic(body) : api === 'gemini' ? canonicalFromGemini(body, path) : api === 'responses' ? canonicalFromResponses(body) : canonicalFromOpenAI(body),
    };
    requests.push(request);
    const strictProblems = api === 'gemini' ? geminiRequestProblems(body) : strictToolProblems(api, body);
    if (strictProblems.length > 0) {
      // As the real APIs do: a strict tool whose schema is outside the strict subset fails the request.
      const message = api === 'gemini' ? strictProblems.join(' ') : `fake model server: invalid schema for a strict tool: ${strictProblems.join('; ')}`;
      errors.push(message);
      return sendJson(res, 400, errorBody(api, 'invalid_request_error', message));
    }
    const pairingProblems = toolPairingProblems(api, body);
    if (pairingProblems.length > 0) {
      // As the real APIs do: a tool call without its result (or a result without its call) fails the request.
      const message = pairingProblems.join(' ');
      errors.push(`fake model server: ${message}`);
      return sendJson(res, 400, errorBody(api, 'invalid_request_error', message));
    }
    const reasoningProblem = api === 'responses' ? reasoning.problem(body) : undefined;
    if (reasoningProblem !== undefined) {
      // As the real API does: a reasoning item dropped or altered on the way back fails the request.
      errors.push(`fake model server: ${reasoningProblem}`);
      return sendJson(res, 400, errorBody(api, 'invalid_request_error', reasoningProblem));
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let released = false;
    const release = (): void => {
      if (!released) inFlight--;
      released = true;
    };
    res.on('close', release);
    try {
      server.onRequest?.(request.n, request);
      const reply = await options.respond(request, { server });
      await answer(request, reply, res, reasoning);
    } catch (error) {
      const message = `fake model server: respond() failed for request ${request.n}: ${error instanceof Error ? error.message : String(error)}`;
      errors.push(message);
      if (!res.headersSent) sendJson(res, 400, errorBody(api, 'invalid_request_error', message));
      else res.destroy();
    } finally {
      if (res.writableEnded || res.destroyed) release();
    }
  }

  const url = await listenLocal(httpServer);

  const server: FakeModelServer = {
    url,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    requests,
    errors,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    onRequest: undefined,
    close: () => closeServer(httpServer),
  };
  return server;
}

async function answer(request: FakeRequest, reply: FakeReply, res: ServerResponse, reasoning: ReasoningLedger): Promise<void> {
  const closed = closedSignal(res);
  if (reply.delayMs) await pause(reply.delayMs, closed);
  if (closed.aborted) return;
  if (reply.drop === 'before-response') {
    res.socket?.destroy();
    return;
  }
  if (reply.status !== undefined && !reply.drop) return sendFailure(request, reply, reply.status, res);
  const turn = planTurn(reply, request);
  const output = request.api === 'responses' ? reasoning.outputItems(turn, request.body) : [];
  if (!request.stream) {
    if (reply.drop) return void res.socket?.destroy();
    if (request.api === 'gemini') return sendJson(res, 200, geminiResponse(turn, request.n));
    return sendJson(res, 200, request.api === 'anthropic' ? anthropicMessage(turn) : request.api === 'responses' ? responsesResponse(turn, output, request.body) : openaiCompletion(turn));
  }
  const includeUsage = (request.body['stream_options'] as { include_usage?: unknown } | undefined)?.include_usage === true;
  const events =
    request.api === 'anthropic'
      ? anthropicStreamEvents(turn)
      : request.api === 'gemini'
        ? geminiStreamEvents(turn, request.n)
        : request.api === 'responses'
          ? responsesStreamEvents(turn, output, request.body)
          : openaiStreamEvents(turn, includeUsage);
  let stopAt = events.length;
  if (reply.drop) stopAt = reply.dropAfterEvents ?? Math.ceil(events.length / 2);
  if (reply.streamError) stopAt = reply.streamError.afterEvents ?? Math.ceil(events.length / 2);
  if (reply.garbleAfterEvents !== undefined) stopAt = reply.garbleAfterEvents;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  for (const event of events.slice(0, stopAt)) {
    if (closed.aborted) return;
    res.write(event);
    if (reply.chunkDelayMs) await pause(reply.chunkDelayMs, closed);
  }
  if (closed.aborted) return;
  if (reply.drop) {
    // Give the partial events time to reach the client before the connection dies.
    await pause(20, closed);
    res.socket?.destroy();
    return;
  }
  if (reply.garbleAfterEvents !== undefined) {
    res.write(request.api === 'anthropic' ? 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n' : 'data: {"id":"chatcmpl-garbled","choices":[{"index":0,"delta":{"content":"gar\n\n');
    res.end();
    return;
  }
  if (reply.streamError) {
    const { type, message = `fake ${type}` } = reply.streamError;
    if (request.api === 'gemini') res.write(geminiStreamErrorEvent(type === 'overloaded_error' ? 503 : 500, message));
    else res.write(request.api === 'anthropic' ? anthropicStreamErrorEvent(type, message) : request.api === 'responses' ? responsesStreamErrorEvent(type, message) : openaiStreamErrorEvent(type, message));
  }
  res.end();
}

function sendFailure(request: FakeRequest, reply: FakeReply, status: number, res: ServerResponse): void {
  const headers: Record<string, string> = {};
  if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
  if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
  const type = reply.errorType ?? errorTypeFor(status);
  const message = reply.errorMessage ?? `fake ${type} (status ${status})`;
  if (request.api === 'gemini') return sendJson(res, status, geminiErrorBody(status, message, typeof reply.retryAfter === 'number' ? reply.retryAfter : undefined));
  sendJson(res, status, errorBody(request.api, type, message), headers);
}

function errorBody(api: FakeApi, type: string, message: string): Record<string, unknown> {
  if (api === 'gemini') return geminiErrorBody(400, message);
  return api === 'anthropic' ? anthropicErrorBody(type, message) : openaiErrorBody(type, message);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Aborted when the client goes away before the response finished. */
function closedSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Runs `body` against a fake model server answering with `respond`, and closes the server after. */
export async function withFakeModelServer<T>(respond: FakeModelServerOptions['respond'], body: (server: FakeModelServer) => Promise<T>): Promise<T> {
  const server = await startFakeModelServer({ respond });
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}
