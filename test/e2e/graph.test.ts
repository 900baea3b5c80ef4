// The task graph as users see it: `squadron graph` (DOT, Mermaid, JSON) and the routing shown by
// validate and plan (human and JSON), for a mission with depends_on, a router and send_to.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { OFFLINE_MODEL_BLOCK, removeProjects, writeProject } from '../support/e2eProject.js';

afterAll(removeProjects);

const MISSION = `${OFFLINE_MODEL_BLOCK}mission "triage" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "fetch" {
    objective = "fetch the ticket"
    tools     = [builtins.http.get]
  }
  task "classify" {
    objective  = "classify it"
    depends_on = [tasks.fetch]
    tools      = [builtins.utils.current_time]
    router {
      route {
        target    = tasks.fix_bug
        condition = "it is a \\"bug\\" report"
      }
      route {
        target    = tasks.answer
        condition = "it is a question"
      }
    }
  }
  task "fix_bug" {
    objective = "fix it"
    tools     = [builtins.utils.current_time]
    send_to   = [tasks.end]
  }
  task "answer" {
    objective = "answer it"
    tools     = [builtins.utils.current_time]
    send_to   = [tasks.end]
  }
  task "end" {
    objective = "reply"
    tools     = [builtins.utils.current_time]
  }
}
`;

const EDGES = [
  { from: 'fetch', to: 'classify', kind: 'depends_on' },
  { from: 'classify', to: 'fix_bug', kind: 'route', condition: 'it is a "bug" report' },
  { from: 'classify', to: 'answer', kind: 'route', condition: 'it is a question' },
  { from: 'fix_bug', to: 'end', kind: 'send_to' },
  { from: 'answer', to: 'end', kind: 'send_to' },
];

describe('squadron graph', { timeout: 120_000 }, () => {
  const dir = writeProject({ 'mission.hcl': MISSION });

  it('prints Graphviz DOT: dependencies, routes labelled with their conditions, send_to', async () => {
    const result = await runCli(['graph', dir], { cwd: dir });
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toBe(`digraph triage {
  rankdir=LR;
  node [shape=box];
  fetch;
  classify;
  fix_bug;
  answer;
  end;
  fetch -> classify;
  classify -> fix_bug [label="it is a \\"bug\\" report", style=dashed];
  classify -> answer [label="it is a question", style=dashed];
  fix_bug -> end [label="send_to", style=bold];
  answer -> end [label="send_to", style=bold];
}
`);
  });

  it('prints a Mermaid flowchart with the same edges', async () => {
    const result = await runCli(['graph', dir, '--format', 'mermaid'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`flowchart LR
  t_fetch["fetch"]
  t_classify["classify"]
  t_fix_bug["fix_bug"]
  t_answer["answer"]
  t_end["end"]
  t_fetch --> t_classify
  t_classify -.->|"it is a #34;bug#34; report"| t_fix_bug
  t_classify -.->|"it is a question"| t_answer
  t_fix_bug ==>|send_to| t_end
  t_answer ==>|send_to| t_end
`);
  });

  it('prints the edges as JSON with --json or --format json', async () => {
    const json = await runCli(['graph', dir, '--json'], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ schema_version: 1, mission: 'triage', tasks: ['fetch', 'classify', 'fix_bug', 'answer', 'end'], edges: EDGES });
    expect((await runCli(['graph', dir, '--format', 'json'], { cwd: dir })).stdout).toBe(json.stdout);
  });

  it('refuses an unknown format and an unknown mission as usage errors', async () => {
    const format = await runCli(['graph', dir, '--format', 'png'], { cwd: dir });
    expect([format.code, format.stderr]).toEqual([2, expect.stringContaining("argument 'png' is invalid")]);
    const mission = await runCli(['graph', dir, '--mission', 'nope'], { cwd: dir });
    expect([mission.code, mission.stderr]).toEqual([2, 'error: no mission "nope" in the config (missions: triage)\n']);
  });
});

describe('validate and plan show routing and the task graph', { timeout: 120_000 }, () => {
  const dir = writeProject({ 'mission.hcl': MISSION });

  it('validate lists each task with its routes and send_to (text) and the edges (JSON)', async () => {
    const text = await runCli(['validate', dir, '--offline'], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      [
        '  classify  worker (1 tool, fake.claude_haiku_4_5)  after fetch',
        '            → fix_bug  if "it is a \\"bug\\" report"',
        '            → answer   if "it is a question"',
        '  fix_bug   worker (1 tool, fake.claude_haiku_4_5)',
        '            → end  (send_to)',
      ].join('\n'),
    );
    const json = await runCli(['validate', dir, '--offline', '--json'], { cwd: dir });
    const mission = JSON.parse(json.stdout).summary.missions[0];
    expect(mission.edges).toEqual(EDGES);
    expect(mission.tasks[1]).toMatchObject({
      name: 'classify',
      depends_on: ['fetch'],
      routes: [
        { target: 'fix_bug', condition: 'it is a "bug" report' },
        { target: 'answer', condition: 'it is a question' },
      ],
      send_to: [],
    });
    expect(mission.tasks[2]).toMatchObject({ name: 'fix_bug', routes: [], send_to: ['end'] });
  });

  it('plan shows where each task leads (text) and the routes, send_to and edges (JSON)', async () => {
    const text = await runCli(['plan', dir], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      ['task classify (after fetch) · agents: worker', '  next       → fix_bug  if "it is a \\"bug\\" report"', '             → answer   if "it is a question"', '  commander  '].join('\n'),
    );
    expect(text.stdout).toContain(['task answer · agents: worker', '  next       → end  (send_to)', '  commander  '].join('\n'));
    const json = await runCli(['plan', dir, '--json', '--task', 'answer'], { cwd: dir });
    const plan = JSON.parse(json.stdout);
    expect(plan.edges).toEqual(EDGES);
    expect(plan.tasks.map((t: { name: string; routes: unknown; send_to: unknown }) => [t.name, t.routes, t.send_to])).toEqual([['answer', [], ['end']]]);
  });
});
