// Runs as MCP resources: `squadron://runs/<id>` is the document of `squadron inspect --json` (status,
// tasks, outputs, what it waits for), `squadron://runs/<id>/transcript` the same with every session's
// messages and tool calls.

import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { getRun } from '../api/index.js';
import type { AgentHost } from './host.js';
import { exposedMissions } from './missionTools.js';

const RUN_URI = /^squadron:\/\/runs\/(run_[A-Za-z0-9_-]+)(\/transcript)?$/;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  { uriTemplate: 'squadron://runs/{run_id}', name: 'run', description: 'A run: status, tasks, outputs, what it waits for', mimeType: 'application/json' },
  { uriTemplate: 'squadron://runs/{run_id}/transcript', name: 'run transcript', description: "A run with every session's messages and tool calls", mimeType: 'application/json' },
];

function visible(host: AgentHost): Set<string> {
  return new Set(exposedMissions(host.project(), host.missions).map((m) => m.name));
}

export async function runResources(host: AgentHost): Promise<Resource[]> {
  const missions = visible(host);
  const runs = await host.store.runs.list({ limit: 50 });
  return runs
    .filter((r) => missions.has(r.mission))
    .map((r) => ({ uri: `squadron://runs/${r.id}`, name: r.id, title: `${r.mission} · ${r.status}`, description: `run of ${r.mission} started ${r.startedAt}`, mimeType: 'application/json' }));
}

export async function readResource(host: AgentHost, uri: string): Promise<{ uri: string; mimeType: string; text: string }[]> {
  const m = RUN_URI.exec(uri);
  if (!m) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri} (squadron://runs/<id> or squadron://runs/<id>/transcript)`);
  const runId = m[1]!;
  const run = await host.store.runs.get(runId);
  if (!run || !visible(host).has(run.mission)) throw new McpError(ErrorCode.InvalidParams, `no run ${runId}`);
  const doc = await getRun(host.store, runId, { transcript: m[2] !== undefined });
  return [{ uri, mimeType: 'application/json', text: JSON.stringify(doc, null, 2) }];
}
