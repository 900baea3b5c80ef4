// End-to-end: what a commander must choose is enforced by schema, and what routing leaves unstarted is
// reported. The commander's tools go out with the task's output fields and the router's targets in
// their JSON schemas, marked strict (OpenAI's strict form turns optional fields into nullable ones;
// the fake server refuses a strict schema the real APIs would refuse). A `none` route leaves its
// targets — and the tasks only they would start — `skipped` in the store, the report and the
// progress lines. Two tools of one agent that share an API name are a validate error and a refused
// toolbox at run time.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { commanderOf, fakeModelBlock, openRunDb, removeProjects, requestsOf, writeProject, ANTHROPIC_MODEL, OFFLINE_MODEL_BLOCK, OPENAI_MODEL } from '../support/e2eProject.js';
import { type FakeModelServer, withFakeModelServer } from '../support/fakeModelServer.js';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import { lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 60_000 });
afterAll(removeProjects);

/** triage (output + router) → escalate (send_to notify) | archive; a `none` route starts neither. */
function triageMission(modelBlock: string, model: string): string {
  return `${modelBlock}
mission "m" {
  commander { model = ${model} }
  task "triage" {
    objective = "triage the case"
    tools     = [builtins.utils.current_time]
    output {
      field "priority" {
        type        = "string"
        description = "low, normal or high"
        required    = true
      }
      field "note" {
        type        = "string"
        description = "anything worth passing on"
      }
    }
    router {
      route {
        target    = tasks.escalate
        condition = "the case is urgent"
      }
      route {
        target    = tasks.archive
        condition = "the case is closed"
      }
    }
  }
  task "escalate" {
    objective = "escalate"
    tools     = [builtins.utils.current_time]
    send_to   = [tasks.notify]
  }
  task "notify" {
    objective = "notify"
    tools     = [builtins.utils.current_time]
  }
  task "archive" {
    objective = "archive"
    tools     = [builtins.utils.current_time]
  }
}
`;
}

function withServer<T>(script: ReturnType<typeof turnScript>, body: (server: FakeModelServer) => Promise<T>): Promise<T> {
  return withFakeModelServer(script.respond, body);
}

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; description?: string; additionalProperties?: unknown };

describe.each([
  ['anthropic', ANTHROPIC_MODEL],
  ['openai', OPENAI_MODEL],
] as const)('commander tools enforced by schema (%s wire format)', (provider, model) => {
  it('sends the output fields and the route targets in strict schemas, and a none route skips what it would have started', async () => {
    // Under OpenAI's strict mode every property is sent, optional ones as null.
    const unset = provider === 'openai' ? { note: null } : {};
    const script = turnScript({
      [commanderOf('triage')]: [
        toolCall('submit_output', { output: { priority: 'low', ...unset } }),
        taskComplete('Nothing urgent, nothing to close.', { route: 'none', ...(provider === 'openai' ? { succeed: null, reason: null } : {}) }),
      ],
    });
    await withServer(script, async (server) => {
      const dir = writeProject({ 'mission.hcl': triageMission(fakeModelBlock(server, provider), model) });
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(server.errors).toEqual([]);
      expect(result.code, result.stderr).toBe(0);

      const tools = new Map(requestsOf(server, commanderOf('triage'))[0]!.canonical.tools.map((t) => [t.name, t]));
      for (const name of ['call_agent', 'ask_agent', 'submit_output', 'task_complete']) expect(tools.get(name)?.strict, name).toBe(true);
      const output = (tools.get('submit_output')!.inputSchema as Schema).properties!['output']!;
      expect(output.additionalProperties).toBe(false);
      expect(output.properties!['priority']).toEqual({ type: 'string', description: 'low, normal or high' });
      const route = (tools.get('task_complete')!.inputSchema as Schema).properties!['route']!;
      const agentName = (tools.get('call_agent')!.inputSchema as Schema).properties!['name']!;
      expect(agentName.enum).toEqual(['worker']);
      if (provider === 'openai') {
        expect(output.required).toEqual(['priority', 'note']);
        expect(output.properties!['note']).toEqual({ type: ['string', 'null'], description: 'anything worth passing on' });
        expect(route.type).toEqual(['string', 'null']);
        expect(route.enum).toEqual(['escalate', 'archive', 'none', null]);
      } else {
        expect(output.required).toEqual(['priority']);
        expect(output.properties!['note']).toEqual({ type: 'string', description: 'anything worth passing on' });
        expect(route.enum).toEqual(['escalate', 'archive', 'none']);
      }

      const doc = JSON.parse(result.stdout);
      expect(doc.status).toBe('completed');
      // The null of an optional field is not kept: the output reads the same from either provider.
      expect(doc.tasks.triage).toMatchObject({ status: 'completed', output: { priority: 'low' } });
      expect(doc.tasks.escalate).toMatchObject({ status: 'skipped', skip_reason: 'not routed to by triage' });
      expect(doc.tasks.archive).toMatchObject({ status: 'skipped', skip_reason: 'not routed to by triage' });
      expect(doc.tasks.notify).toMatchObject({ status: 'skipped', skip_reason: 'only escalate could route to it, and it was skipped' });
      const db = openRunDb(dir);
      try {
        const rows = db.prepare('SELECT name, status FROM tasks ORDER BY name').all();
        expect(rows).toEqual([
          { name: 'archive', status: 'skipped' },
          { name: 'escalate', status: 'skipped' },
          { name: 'notify', status: 'skipped' },
          { name: 'triage', status: 'completed' },
        ]);
      } finally {
        db.close();
      }
      // Only triage's commander ever talked to the model.
      expect(server.requests.every((r) => r.canonical.system.includes(commanderOf('triage')))).toBe(true);
    });
  });
});

describe('skipped tasks in the human report', () => {
  it('prints each skipped task with its reason, in the progress lines and the summary', async () => {
    const script = turnScript({
      [commanderOf('triage')]: [
        toolCall('submit_output', { output: { priority: 'high' } }),
        // A route outside the enum is refused with the allowed targets; the commander corrects it.
        taskComplete('Urgent.', { route: 'page_someone' }),
        (req) => {
          expect(lastToolResult(req)).toMatch(/route.*"escalate"\|"archive"\|"none"/s);
          return taskComplete('Urgent.', { route: 'archive' });
        },
      ],
      [commanderOf('archive')]: [taskComplete('Archived.')],
    });
    await withServer(script, async (server) => {
      const dir = writeProject({ 'mission.hcl': triageMission(fakeModelBlock(server), ANTHROPIC_MODEL) });
      const result = await runCli(['run', dir], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('task escalate: skipped (not routed to by triage)');
      expect(result.stderr).toContain('task notify: skipped (only escalate could route to it, and it was skipped)');
      expect(result.stdout).toContain('– escalate (skipped: not routed to by triage)');
      expect(result.stdout).toContain('✓ archive (completed)');
      expect(result.stdout).toContain('mission m completed');
    });
  });
});

describe('tools whose API names collide', () => {
  /** Two stdio test servers, `x` and `x_crm`, offering `crm_get_customer` and `get_customer`. */
  const servers = ['x', 'x_crm']
    .map(
      (name, i) => `mcp "${name}" {
  command = "${process.execPath}"
  args    = ["${MCP_STDIO_SERVER_PATH}"]
  env     = { MCP_TEST_EXTRA_TOOLS = "${i === 0 ? 'crm_get_customer' : 'get_customer'}" }
}
`,
    )
    .join('');
  const mission = (modelBlock: string, tools: string): string =>
    `${modelBlock}${servers}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "lookup" {
    objective = "look the customer up"
    tools     = ${tools}
  }
}
`;
  const position = (dir: string, text: string): [number, number] => {
    const lines = readFileSync(join(dir, 'mission.hcl'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes(text));
    return [line + 1, lines[line]!.indexOf(text) + 1];
  };
  type JsonDiagnostic = { code: string; severity: string; line: number; column: number; message: string };
  const ref015 = (stdout: string): JsonDiagnostic[] => (JSON.parse(stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics.filter((d) => d.code === 'REF015');

  it('validate reports two explicit refs with one API name at both places, without contacting a server', async () => {
    const dir = writeProject({ 'mission.hcl': mission(OFFLINE_MODEL_BLOCK, '[mcp.x.crm_get_customer, mcp.x_crm.get_customer]') });
    const result = await runCli(['validate', dir, '--offline', '--format', 'json'], { cwd: dir });
    expect(result.code).toBe(1);
    const [diag, ...rest] = ref015(result.stdout);
    expect(rest).toEqual([]);
    expect(diag!.severity).toBe('error');
    // Reported at the second ref; the first one's place is in the message (both file:line:col).
    const [line, column] = position(dir, 'mcp.x.crm_get_customer');
    expect(diag!.message).toBe(
      `the worker of task "lookup" is given two tools named "mcp_x_crm_get_customer" on the model API: mcp.x.crm_get_customer and mcp.x_crm.get_customer (mcp.x.crm_get_customer is at mission.hcl:${line}:${column})`,
    );
    expect([diag!.line, diag!.column]).toEqual(position(dir, 'mcp.x_crm.get_customer'));
    const text = await runCli(['validate', dir, '--offline'], { cwd: dir });
    expect(text.stdout + text.stderr).toMatch(/error\[REF015\]/);
  });

  it('validate finds a collision hidden behind mcp.<server>.all once it lists the servers tools', async () => {
    const dir = writeProject({ 'mission.hcl': mission(OFFLINE_MODEL_BLOCK, '[mcp.x.all, mcp.x_crm.get_customer]') });
    const offline = await runCli(['validate', dir, '--offline', '--format', 'json'], { cwd: dir });
    expect(ref015(offline.stdout)).toEqual([]);
    const online = await runCli(['validate', dir, '--format', 'json'], { cwd: dir });
    expect(online.code).toBe(1);
    const diags = ref015(online.stdout);
    const [line, column] = position(dir, 'mcp.x.all');
    expect(diags.map((d) => [d.severity, d.message])).toEqual([
      [
        'error',
        `the worker of task "lookup" is given two tools named "mcp_x_crm_get_customer" on the model API: mcp.x.crm_get_customer (from mcp.x.all) and mcp.x_crm.get_customer (mcp.x.all is at mission.hcl:${line}:${column})`,
      ],
    ]);
    expect([diags[0]!.line, diags[0]!.column]).toEqual(position(dir, 'mcp.x_crm.get_customer'));
  });

  it('run refuses the toolbox instead of offering one tool under the other name', async () => {
    const script = turnScript({});
    await withServer(script, async (server) => {
      const dir = writeProject({ 'mission.hcl': mission(fakeModelBlock(server), '[mcp.x.all, mcp.x_crm.get_customer]') });
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(result.code).toBe(1);
      const doc = JSON.parse(result.stdout);
      expect(doc.status).toBe('failed');
      expect(doc.tasks.lookup.status).toBe('failed');
      expect(doc.tasks.lookup.error).toContain('tools mcp.x.crm_get_customer (task) and mcp.x_crm.get_customer (task) would both be called "mcp_x_crm_get_customer" by the model');
      // No model was asked anything with an ambiguous tool list.
      expect(server.requests).toHaveLength(0);
    });
  });
});
