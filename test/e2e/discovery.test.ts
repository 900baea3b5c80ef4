// End-to-end: progressive tool discovery through the CLI and the fake model server. A worker holding
// more tools than discovery_threshold starts with search_tools/get_tool_schema (+ always_load) only;
// search → schema → call works; a loaded tool is in the next request's tools in a stable order; an
// authorized tool that was never loaded still runs after input validation; a tool outside the task's
// authorization is "unknown" to search, schema and call alike; loaded tools survive `resume`.

import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import {
  ANTHROPIC_MODEL,
  fakeModelBlock,
  latestToolResults,
  openRunDb,
  requestsOf,
  resultText,
  storedEvents,
  toolNames,
  workerOf,
  writeProject,
  removeProjects,
} from '../support/e2eProject.js';
import { BILLING_TASK, billingMissionHcl } from '../support/billingMission.js';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript, type TurnReply } from '../support/turnScript.js';
import { closeServer, listenLocal } from '../support/localServer.js';

// Each test spawns the CLI several times; the machine may be shared and slow.
afterAll(removeProjects);

let site: Server;
let siteUrl = '';
const siteHits: string[] = [];

beforeAll(async () => {
  site = createServer((req, res) => {
    siteHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, path: req.url }));
  });
  siteUrl = await listenLocal(site);
});

afterAll(async () => {
  await closeServer(site);
});

function missionHcl(server: FakeModelServer, task: string): string {
  return billingMissionHcl(fakeModelBlock(server), ANTHROPIC_MODEL, siteUrl, task);
}

const TASK = BILLING_TASK;

const commander = (): TurnReply[] => [callAgent('worker', 'Refund payment p1 and keep a note.'), (req) => taskComplete(`Worker: ${lastToolResult(req)}`)];

describe('progressive discovery through the fake model server', () => {
  let server: FakeModelServer;
  let requests: FakeRequest[];
  let stderr = '';
  let dir = '';

  beforeAll(async () => {
    const turns = turnScript({
      'commander of task "bill"': commander(),
      'worker agent of task "bill"': [
        toolCall('search_tools', { query: 'refund a payment' }),
        toolCall('get_tool_schema', { name: 'tools_refund_payment' }),
        toolCall('tools_refund_payment', { id: 'p1' }),
        toolCall('get_tool_schema', { name: 'builtins_files_write' }),
        toolCall('builtins_files_write', { path: 'note.txt', content: 'refunded p1' }),
        // Authorized but never loaded: validated, then executed.
        toolCall('builtins_files_read', { pathh: 'note.txt' }),
        toolCall('builtins_files_read', { path: 'note.txt' }),
        // Outside the authorization (builtins.utils is not the task's): unknown everywhere.
        toolCall('search_tools', { query: 'sleep pause wait seconds' }),
        toolCall('search_tools', { group: 'builtins.utils' }),
        toolCall('get_tool_schema', { name: 'builtins_utils_sleep' }),
        toolCall('builtins_utils_sleep', { seconds: 1 }),
        toolCall('get_tool_schema', { name: 'builtins_utils_teleport' }),
        toolCall('builtins_utils_teleport', { seconds: 1 }),
        { text: 'Refunded p1 and wrote the note.' },
      ],
    });
    server = await startFakeModelServer({ respond: turns.respond });
    dir = writeProject({ 'mission.hcl': missionHcl(server, TASK) });
    const run = await runCli(['run', dir, '--workspace', `${dir}/ws`], { cwd: dir });
    expect(turns.problems).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    stderr = run.stderr;
    requests = requestsOf(server, workerOf('bill'));
    expect(requests).toHaveLength(14);
  });

  afterAll(async () => {
    await server.close();
  });

  it('starts with only the discovery tools and always_load, and a contract naming the groups', () => {
    expect(toolNames(requests[0])).toEqual(['search_tools', 'get_tool_schema', 'builtins_http_get']);
    const system = requests[0]!.canonical.system;
    expect(system).toContain('## Finding your tools');
    expect(system).toContain('You hold 18 tools');
    expect(system).toContain('- billing (10): Invoices, payments, customers and subscriptions');
    expect(system).toContain('- builtins.files (3)');
    expect(system).toContain('- builtins.http (5)');
    expect(system).not.toContain('builtins.utils');
    expect(stderr).toContain('worker[bill]: 18 tools (toolset:billing 10, task 8) via discovery');
  });

  it('runs search → schema → call, and sends a loaded tool from the next request on, in load order', () => {
    const search = JSON.parse(resultText(latestToolResults(requests[1]!)[0]));
    expect(search.results[0]).toEqual({ name: 'tools_refund_payment', description: 'Refund a captured payment, fully or partially.', group: 'billing' });
    expect(search.results.length).toBeLessThanOrEqual(8);

    const schema = JSON.parse(resultText(latestToolResults(requests[2]!)[0]));
    expect(schema.name).toBe('tools_refund_payment');
    expect(schema.input_schema.properties.id.type).toBe('string');
    expect(toolNames(requests[1])).toEqual(['search_tools', 'get_tool_schema', 'builtins_http_get']);
    expect(toolNames(requests[2])).toEqual(['search_tools', 'get_tool_schema', 'builtins_http_get', 'tools_refund_payment']);

    const refund = latestToolResults(requests[3]!)[0]!;
    expect(refund.isError).toBe(false);
    expect(resultText(refund)).toContain('/refund_payment/p1');
    expect(siteHits).toContain('/refund_payment/p1');

    // A second load appends; every later request keeps the same prefix (prompt cache friendly).
    const loadedList = ['search_tools', 'get_tool_schema', 'builtins_http_get', 'tools_refund_payment', 'builtins_files_write'];
    for (const r of requests.slice(4)) expect(toolNames(r)).toEqual(loadedList);
    expect(storedEvents(dir, 'tool.loaded').map((e) => e['ref'])).toEqual(['tools.refund_payment', 'builtins.files.write']);
  });

  it('executes an authorized tool that was never loaded, after validating its input', () => {
    const invalid = latestToolResults(requests[6]!)[0]!;
    expect(invalid.isError).toBe(true);
    expect(resultText(invalid)).toMatch(/builtins_files_read/);
    expect(resultText(invalid)).toMatch(/path/);
    const read = latestToolResults(requests[7]!)[0]!;
    expect(read.isError).toBe(false);
    expect(resultText(read)).toContain('refunded p1');
    // Calling it did not load it.
    expect(toolNames(requests[7])).not.toContain('builtins_files_read');
  });

  it('treats a tool outside the authorization as unknown for search, schema and call alike', () => {
    const search = resultText(latestToolResults(requests[8]!)[0]);
    expect(search).not.toContain('builtins_utils');
    const group = JSON.parse(resultText(latestToolResults(requests[9]!)[0]));
    expect(group.no_matches).toBe(true);
    expect(group.groups.map((g: { name: string }) => g.name)).toEqual(['billing', 'builtins.files', 'builtins.http']);

    const schemaSleep = latestToolResults(requests[10]!)[0]!;
    const callSleep = latestToolResults(requests[11]!)[0]!;
    const schemaMadeUp = latestToolResults(requests[12]!)[0]!;
    const callMadeUp = latestToolResults(requests[13]!)[0]!;
    for (const r of [schemaSleep, callSleep, schemaMadeUp, callMadeUp]) expect(r.isError).toBe(true);
    // The existing-but-unauthorized tool gets the very answer a made-up name gets.
    const normalize = (part: typeof schemaSleep, name: string) => resultText(part).replace(name, '<name>').replace(/ Similar: .*$/, '');
    expect(normalize(schemaSleep, 'builtins_utils_sleep')).toBe('Unknown tool "<name>". Use search_tools to find the exact name of a tool you hold.');
    expect(normalize(callSleep, 'builtins_utils_sleep')).toBe(normalize(schemaSleep, 'builtins_utils_sleep'));
    expect(normalize(schemaMadeUp, 'builtins_utils_teleport')).toBe(normalize(schemaSleep, 'builtins_utils_sleep'));
    expect(normalize(callMadeUp, 'builtins_utils_teleport')).toBe(normalize(schemaSleep, 'builtins_utils_sleep'));
    // Nothing outside the authorization ran or reached the ledger.
    const db = openRunDb(dir);
    const refs = db.prepare('SELECT DISTINCT tool_ref FROM tool_calls').all() as { tool_ref: string }[];
    db.close();
    expect(refs.map((r) => r.tool_ref).filter((r) => r.startsWith('builtins.utils'))).toEqual([]);
  });
});

describe('the discovery decision', () => {
  async function firstRequestTools(task: string, defaults = '', flags: string[] = []): Promise<{ discovery: boolean; first_request_tools: string[] }> {
    const server = await startFakeModelServer({ respond: () => ({ text: 'unused' }) });
    try {
      const dir = writeProject({ 'mission.hcl': missionHcl(server, `${defaults}\n  ${task}`) });
      const plan = await runCli(['plan', dir, '--json', ...flags], { cwd: dir });
      expect(plan.code, plan.stderr).toBe(0);
      return JSON.parse(plan.stdout).tasks[0].agents[0];
    } finally {
      await server.close();
    }
  }

  it('discovery = true forces it for a few tools; discovery = false and a higher threshold turn it off', async () => {
    const forced = await firstRequestTools('task "bill" {\n objective = "x"\n tools = [builtins.files.read]\n discovery = true\n }');
    expect(forced).toMatchObject({ discovery: true, first_request_tools: ['search_tools', 'get_tool_schema'] });
    const off = await firstRequestTools('task "bill" {\n objective = "x"\n tools = [toolsets.billing, builtins.files.all, builtins.http.all]\n discovery = false\n }');
    expect(off.discovery).toBe(false);
    expect(off.first_request_tools).toHaveLength(18);
    const threshold = await firstRequestTools(
      'task "bill" {\n objective = "x"\n tools = [toolsets.billing, builtins.files.all, builtins.http.all]\n }',
      'agent_defaults {\n discovery_threshold = 18\n }',
    );
    expect(threshold.discovery).toBe(false);
    const lower = await firstRequestTools('task "bill" {\n objective = "x"\n tools = [builtins.files.all]\n discovery_threshold = 2\n }');
    expect(lower).toMatchObject({ discovery: true, first_request_tools: ['search_tools', 'get_tool_schema'] });
    // With nothing to discover, there are no search tools either.
    const none = await firstRequestTools('task "bill" {\n objective = "x"\n tools = [builtins.files.read]\n discovery = true\n }', '', ['--no-tools']);
    expect(none).toMatchObject({ discovery: false, first_request_tools: [] });
  });
});

describe('loaded tools belong to the session', () => {
  const AUDIT_SKILL = `
skill "audit" {
  description  = "How to audit a billing change"
  instructions = "Note the time of every change."
  tools        = [builtins.utils.current_time]
}
`;
  const task = BILLING_TASK.replace('always_load = [builtins.http.get]', 'skills      = [skills.audit]');
  const config = (server: FakeModelServer) => `${missionHcl(server, task)}${AUDIT_SKILL}`;

  it('survive a kill and a resume: the resumed request carries the same tools in the same load order', async () => {
    const worker: TurnReply[] = [
      toolCall('search_tools', { query: 'cancel a subscription' }),
      toolCall('load_skill', { name: 'audit' }),
      toolCall('get_tool_schema', { name: 'tools_cancel_subscription' }),
      toolCall('get_tool_schema', { name: 'builtins_files_write' }),
      toolCall('tools_cancel_subscription', { id: 's9' }),
      { text: 'Cancelled s9.' },
    ];
    const script = { 'commander of task "bill"': commander(), 'worker agent of task "bill"': worker };

    const first = turnScript(script);
    const server = await startFakeModelServer({ respond: first.respond });
    let child: ChildProcess | undefined;
    // Die the moment the worker asks for its fifth turn: the skill and both schemas are loaded and stored.
    server.onRequest = (_n, req) => {
      const turn = req.canonical.messages.filter((m) => m.role === 'assistant').length;
      if (req.canonical.system.includes(workerOf('bill')) && turn === 4) child?.kill('SIGKILL');
    };
    const dir = writeProject({ 'mission.hcl': config(server) });
    let killed;
    try {
      killed = await runCli(['run', dir], { cwd: dir, onSpawn: (c) => (child = c) });
    } finally {
      await server.close();
    }
    expect(killed.signal).toBe('SIGKILL');
    const runId = /run (run_\w+)/.exec(killed.stdout)?.[1];
    expect(runId).toBeDefined();
    // Interleaved: the skill's tool, then the two schemas, each appended when it was loaded.
    const loaded = ['search_tools', 'get_tool_schema', 'load_skill', 'builtins_utils_current_time', 'tools_cancel_subscription', 'builtins_files_write'];
    expect(toolNames(requestsOf(server, workerOf('bill'))[4])).toEqual(loaded);

    const second = turnScript(script);
    const again = await startFakeModelServer({ respond: second.respond });
    try {
      // The model's base URL changed with the new server: the config file is rewritten in place, a
      // config change resume must be allowed to accept.
      writeFileSync(`${dir}/mission.hcl`, config(again));
      const resumed = await runCli(['resume', runId!, '--db', '.squadron/squadron.db', '--allow-config-change'], { cwd: dir });
      expect(second.problems).toEqual([]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain('(resumed)');
      const after = requestsOf(again, workerOf('bill'));
      expect(after.length).toBeGreaterThanOrEqual(1);
      expect(toolNames(after[0])).toEqual(loaded);
      const cancel = latestToolResults(after[after.length - 1]!)[0]!;
      expect(cancel.isError).toBe(false);
      expect(siteHits).toContain('/cancel_subscription/s9');
    } finally {
      await again.close();
    }
  });
});
