// Every example in examples/ validates (with its secret variables supplied through the
// environment, as a user would), and each shows what it is meant to show.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../config/load.js';

const root = join(import.meta.dirname, '..', '..', 'examples');
const env = { SQUADRON_VAR_anthropic_api_key: 'test', SQUADRON_VAR_openai_api_key: 'test' };
const examples = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

test('there are at least three examples', () => {
  expect(examples.length).toBeGreaterThanOrEqual(3);
});

for (const name of examples) {
  test(`examples/${name} validates without errors or warnings`, () => {
    const r = loadConfig(join(root, name), { env });
    expect(r.diagnostics).toEqual([]);
    expect(r.graph!.missions.length).toBeGreaterThan(0);
  });
}

test('pricing-research: toolsets, task tools, agent_defaults and a declared agent beside the worker', () => {
  const g = loadConfig(join(root, 'pricing-research'), { env }).graph!;
  const gather = g.missions[0]!.tasks.find((t) => t.name === 'gather')!;
  expect(gather.agents).toEqual(['pricing_expert']);
  expect(gather.worker!.modelVia).toBe('task');
  expect(new Set(gather.worker!.tools.map((t) => t.via))).toEqual(new Set(['toolset:browsing', 'toolset:data_io', 'agent_defaults']));
});

test('support-triage: a router, send_to, output schemas and a folder skill', () => {
  const g = loadConfig(join(root, 'support-triage'), { env }).graph!;
  const [triage, bug] = g.missions[0]!.tasks;
  expect(triage!.router.map((r) => r.target)).toEqual(['reproduce_bug', 'answer_question']);
  expect(bug!.sendTo).toEqual(['reply']);
  expect(bug!.output!.map((f) => f.name)).toEqual(['reproduced', 'steps']);
  expect(g.skills.map((s) => `${s.name}:${s.origin.kind}`)).toEqual(['triage_rules:hcl', 'tone-guide:folder']);
});

test('weather-report: tools with inputs from its local MCP server, and mission inputs with defaults', () => {
  const g = loadConfig(join(root, 'weather-report'), { env }).graph!;
  const report = g.missions[0]!.tasks.find((t) => t.name === 'report')!;
  expect(report.worker!.tools.map((t) => t.ref).filter((ref) => ref.startsWith('mcp.'))).toEqual(['mcp.weather.geocode', 'mcp.weather.forecast']);
  expect(g.missions[0]!.inputs.map((i) => [i.name, i.required])).toEqual([
    ['city', false],
    ['days', false],
  ]);
});
