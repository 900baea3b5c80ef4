// renderObjective: the objective template evaluated at run time with input values and variables.

import { afterAll, expect, test } from 'vitest';
import { renderObjective } from '../../config/objective.js';
import { loadHcl, removeTempProjects, withMission } from './support.js';

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
