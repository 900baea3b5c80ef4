// End-to-end: datasets and iterators through the CLI. validate reports bad written items by index at
// their position; plan reads a list input from a JSON or JSON Lines file (-i name=@file), counts the
// items, names every bad one, and shows a parallel task's commander for item 0; a file that cannot
// be used is one error line.

import { afterAll, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, OFFLINE_MODEL_BLOCK, removeProjects, writeProject } from '../support/e2eProject.js';

vi.setConfig({ testTimeout: 120_000 });
afterAll(removeProjects);

const MISSION = `${OFFLINE_MODEL_BLOCK}
mission "triage" {
  commander { model = ${ANTHROPIC_MODEL} }
  input "tickets" {
    type = "list"
  }
  dataset "tickets" {
    bind_to = inputs.tickets
    schema = {
      id      = integer("ticket id", true)
      subject = string("subject", true)
    }
  }
  task "triage" {
    objective = "Triage ticket \${item.id}: \${item.subject} (item \${item_index})"
    tools     = [builtins.http.get]
    iterator {
      dataset           = datasets.tickets
      parallel          = true
      concurrency_limit = 10
    }
  }
}
`;

describe('datasets through the CLI', () => {
  it('validate reports each bad written item with its index at file:line:col and exits 1', async () => {
    const dir = writeProject({
      'main.hcl': `${OFFLINE_MODEL_BLOCK}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  dataset "skus" {
    items  = [{ sku = "A-1" }, { sku = 2 }]
    schema = { sku = string("stock keeping unit", true) }
  }
  task "t" {
    objective = "Price every SKU"
    tools     = [builtins.http.get]
    iterator { dataset = datasets.skus }
  }
}
`,
    });
    const r = await runCli(['validate', dir], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('main.hcl:9:32: error[ITR003]: item 1 of dataset "skus" does not match its schema: item[1].sku: expected a string, got number 2');
    const json = await runCli(['validate', dir, '--json'], { cwd: dir });
    const doc = JSON.parse(json.stdout) as { valid: boolean; diagnostics: { code: string; line: number; column: number }[] };
    expect([doc.valid, doc.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`)]).toEqual([false, ['ITR003@9:32']]);
  });

  it('validate summarizes the iterator and plan counts items read from a JSON Lines file, naming bad ones', async () => {
    const dir = writeProject({ 'main.hcl': MISSION });
    writeFileSync(join(dir, 'tickets.jsonl'), '{"id": 41, "subject": "Login broken"}\n\n{"id": 42, "subject": "Refund"}\r\n{"id": "x"}\n');
    const valid = await runCli(['validate', dir], { cwd: dir });
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toContain('triage  worker (1 tool, fake.claude_sonnet_4_6)  for each item of datasets.tickets (parallel)');

    const plan = await runCli(['plan', dir, '-i', 'tickets=@tickets.jsonl'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('iterates  datasets.tickets · 3 items · in parallel, 10 at a time, on failure continue');
    expect(plan.stdout).toContain('bad item: dataset "tickets" item 2: item[2].id: expected an integer, got string "x"; item[2].subject: required field is missing');

    const json = await runCli(['plan', dir, '--json', '--show-prompt', '-i', 'tickets=@tickets.jsonl'], { cwd: dir });
    const doc = JSON.parse(json.stdout) as { tasks: { iterator: Record<string, unknown>; commander: { first_message: string } }[] };
    expect(doc.tasks[0]!.iterator).toMatchObject({ dataset: 'tickets', mode: 'parallel', items: 3, concurrency_limit: 10, shown_item: 0 });
    expect(doc.tasks[0]!.commander.first_message).toBe('Triage ticket 41: Login broken (item 0)');
  });

  it('plan without the input shows the count as unknown and the objective with placeholders', async () => {
    const dir = writeProject({ 'main.hcl': MISSION });
    const json = await runCli(['plan', dir, '--json', '--show-prompt'], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { tasks: { iterator: Record<string, unknown>; commander: { first_message: string } }[] };
    expect(doc.tasks[0]!.iterator).toMatchObject({ items: null, item_problems: [] });
    expect(doc.tasks[0]!.commander.first_message).toBe('Triage ticket <item.id>: <item.subject> (item 0)');
  });

  it('a JSON array file works too; a missing, malformed or wrong-shaped file is one error line (exit 2)', async () => {
    const dir = writeProject({ 'main.hcl': MISSION });
    writeFileSync(join(dir, 'tickets.json'), '[{"id": 1, "subject": "a"}]');
    writeFileSync(join(dir, 'bad.jsonl'), '{"id": 1}\n{"id": \n');
    writeFileSync(join(dir, 'object.json'), '{"id": 1}');
    const ok = await runCli(['plan', dir, '--json', '-i', 'tickets=@tickets.json'], { cwd: dir });
    expect((JSON.parse(ok.stdout) as { tasks: { iterator: { items: number } }[] }).tasks[0]!.iterator.items).toBe(1);
    const cases: [string, string][] = [
      ['tickets=@missing.json', 'error: input "tickets": the file missing.json does not exist'],
      ['tickets=@bad.jsonl', 'error: input "tickets": bad.jsonl is not JSON Lines: line 2: '],
      ['tickets=@object.json', 'error: input "tickets" expects a JSON array (or JSON Lines), but object.json holds an object'],
      ['tickets=@', 'error: input "tickets": "@" must be followed by a file path, e.g. -i tickets=@tickets.json'],
    ];
    for (const [arg, line] of cases) {
      const r = await runCli(['plan', dir, '-i', arg], { cwd: dir });
      expect(r.code, arg).toBe(2);
      expect(r.stderr.startsWith(line), `${arg}: ${r.stderr}`).toBe(true);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
