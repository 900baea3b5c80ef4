// A2A v1.0 under `squadron serve`: agent cards (the project's at /.well-known/agent-card.json, each
// exposed mission's at /a2a/<mission>/.well-known/agent-card.json) and the JSON-RPC binding at /a2a
// and /a2a/<mission>, through the maintained SDK (@a2a-js/sdk): its transport handlers parse, check
// and answer the wire (v1.0 method names, and the v0.3 ones: message/send, tasks/get, tasks/cancel,
// message/stream); what a task is comes from a2aTasks.ts.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER, AgentCard, Extensions, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS, type AgentCard as Card } from '@a2a-js/sdk';
import { defaultServerCallContextBuilder, JsonRpcTransportHandler, validateVersion } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import type { Mission } from '../api/index.js';
import type { AgentHost } from './host.js';
import { exposedMissions } from './missionTools.js';
import { RunRequestHandler } from './a2aTasks.js';

const CARD = '/.well-known/agent-card.json';
const MISSION_PATH = /^\/a2a\/([A-Za-z_][A-Za-z0-9_-]*)(\/\.well-known\/agent-card\.json)?$/;
const MAX_BODY = 1024 * 1024;

type Route = { kind: 'card' | 'rpc'; mission?: string };

function route(path: string): Route | undefined {
  if (path === CARD) return { kind: 'card' };
  if (path === '/a2a') return { kind: 'rpc' };
  const m = MISSION_PATH.exec(path);
  if (!m) return undefined;
  return { kind: m[2] ? 'card' : 'rpc', mission: m[1]! };
}

export class A2aEndpoint {
  constructor(private readonly version: string) {}

  /** Whether `path` is an A2A endpoint, and whether a card (public) or JSON-RPC (a bearer token). */
  matches(path: string): 'card' | 'rpc' | undefined {
    return route(path)?.kind;
  }

  async handle(req: IncomingMessage, res: ServerResponse, host: AgentHost, url: URL, origin: string): Promise<void> {
    const r = route(url.pathname)!;
    const missions = exposedMissions(host.project(), host.missions);
    const only = r.mission === undefined ? undefined : missions.find((m) => m.name === r.mission);
    if (r.mission !== undefined && !only) return json(res, 404, { error: `no mission ${r.mission}`, error_code: 'not_found' });
    const card = agentCard(only ? [only] : missions, `${origin}${only ? `/a2a/${only.name}` : '/a2a'}`, this.version, only);
    if (r.kind === 'card') {
      if (req.method !== 'GET') return json(res, 405, { error: `${req.method} is not allowed`, error_code: 'usage' });
      return json(res, 200, AgentCard.toJSON(card));
    }
    if (req.method !== 'POST') return json(res, 405, { error: `${req.method} is not allowed`, error_code: 'usage' });
    await this.rpc(req, res, new RunRequestHandler(host, card, only?.name));
  }

  private async rpc(req: IncomingMessage, res: ServerResponse, handler: RunRequestHandler): Promise<void> {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
    } catch {
      return json(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const header = req.headers[A2A_VERSION_HEADER.toLowerCase()];
    const requested = typeof header === 'string' && header !== '' ? header : undefined;
    // As the SDK's own server does: a request without a version header is a v0.3 client.
    const legacy = (requested ?? '0.3') === '0.3';
    const mapError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    try {
      const context = defaultServerCallContextBuilder({
        extensions: Extensions.parseServiceParameter(typeof req.headers['a2a-extensions'] === 'string' ? req.headers['a2a-extensions'] : undefined),
        user: undefined,
        headers: req.headers,
        ...(requested !== undefined ? { requestedVersion: requested } : {}),
      });
      validateVersion(context.requestedVersion, await handler.getAgentCard(), 'JSONRPC');
      const answer = await (legacy ? new LegacyJsonRpcTransportHandler(handler) : new JsonRpcTransportHandler(handler)).handle(body, context);
      if (!isStream(answer)) return json(res, 200, answer);
      res.writeHead(200, SSE_HEADERS as Record<string, string>);
      try {
        for await (const event of answer) res.write(formatSSEEvent(event));
      } catch (error) {
        res.write(formatSSEErrorEvent({ jsonrpc: '2.0', id: (body['id'] as string | number | null) ?? null, error: mapError(error) }));
      }
      res.end();
    } catch (error) {
      if (res.headersSent) return void res.end();
      json(res, 200, { jsonrpc: '2.0', id: (body['id'] as string | number | null) ?? null, error: mapError(error) });
    }
  }
}

function agentCard(missions: readonly Mission[], url: string, version: string, only: Mission | undefined): Card {
  return {
    name: only ? only.name : 'squadron',
    description: only ? (only.description ?? `The mission ${only.name}`) : `Squadron missions: ${missions.map((m) => m.name).join(', ')}. Name one in the message's metadata.mission.`,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: undefined,
    version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json', 'text/plain'],
    skills: missions.map((m) => ({
      id: m.name,
      name: m.name,
      description: `${m.description ?? `The mission ${m.name}`} Inputs: ${m.inputs.map((i) => `${i.name} (${i.type}${i.required && i.default === undefined ? ', required' : ''})`).join(', ') || 'none'}.`,
      tags: ['mission'],
      examples: [],
      inputModes: ['text/plain', 'application/json'],
      outputModes: ['application/json'],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

function isStream(value: unknown): value is AsyncGenerator<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('the body is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
