// renderObjective: the objective template evaluated at run time with input values and variables.

import { afterAll, describe, expect, test } from 'vitest';
import { renderObjective } from '../../config/objective.js';
import { at, codes, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const src = `variable "tone" {\n  default = "brief"\n}\n${withMission('  input "topic" {\n    type = "string"\n  }\n  input "n" {\n    type    = "integer"\n    default = 3\n  }\n  task "a" {\n    objective = "Give ${inputs.n} ${vars.tone} facts about ${upper(inputs.topic)}."\n    tools     = []\n  }\n')}`;

test('renders with input values and variables', () => {
  const g = loadHcl(src).graph!;
  const out = renderObjective(g.missions[0]!.tasks[0]!, g.variables, { topic: 'owls', n: 3 });
  expect(out).toEqual({ text: 'Give 3 brief facts about OWLS.', diagnostics: [] });
});

test('a missing input value is an error, not a crash', () => {
  const g = loadHcl(src).graph!;
  const out = renderObjective(g.missions[0]!.tasks[0]!, g.variables, { n: 3 });
  expect(out.text).toBeUndefined();
  expect(out.diagnostics.length).toBeGreaterThan(0);
});

describe('a nested splat in an objective', () => {
  const nested = (index: string): string =>
    withMission(`  input "teams" {\n    type = "list"\n  }\n  task "a" {\n    objective = "Greet \${jsonencode(inputs.teams[*].members[*]${index})}."\n    tools     = []\n  }\n`);

  test('loads (the splat element is not a name) and renders with the input value', () => {
    const r = loadHcl(nested('.name'));
    expect(codes(r)).toEqual([]);
    const out = renderObjective(r.graph!.missions[0]!.tasks[0]!, r.graph!.variables, {
      teams: [{ members: [{ name: 'Ada' }, { name: 'Bo' }] }, { members: [{ name: 'Cy' }] }],
    });
    expect(out).toEqual({ text: 'Greet [["Ada","Bo"],["Cy"]].', diagnostics: [] });
  });

  test('a reference inside the per-element expression is checked (REF012 for tasks)', () => {
    const src = nested('[tasks.a]');
    expect(codes(loadHcl(src))).toEqual([`REF012@${at(src, 'tasks.a')}`]);
  });
});
