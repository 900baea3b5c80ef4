// Direct tasks in the config: `direct = true` on a task or as the mission's default (a task's own
// `direct = false` wins), and what a task without a commander cannot have: declared agents (GRA013),
// no tools (GRA014), a sequential iterator (ITR009), each at its position.

import { afterAll, describe, expect, test } from 'vitest';
import { at, codes, loadHcl, MODEL, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const AGENT = `agent "expert" {\n  model       = models.claude.claude_sonnet_5_5\n  personality = "Pricing expert"\n  tools       = [builtins.http.get]\n}\n`;
const withAgent = (body: string): string => `${MODEL}${AGENT}${withMission(body).slice(MODEL.length)}`;

describe('direct tasks', () => {
  test('direct = true marks the task; a task without it is not direct', () => {
    const r = loadHcl(withMission('  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    direct    = true\n  }\n  task "b" {\n    objective = "y"\n    tools     = [builtins.http.get]\n  }\n'));
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.tasks.map((t) => [t.name, t.direct])).toEqual([
      ['a', true],
      ['b', undefined],
    ]);
  });

  test("the mission's direct = true is every task's default; direct = false on a task keeps its commander", () => {
    const r = loadHcl(withAgent('  direct = true\n  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n  task "b" {\n    objective = "y"\n    direct    = false\n    agents    = [agents.expert]\n  }\n'));
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.tasks.map((t) => [t.name, t.direct])).toEqual([
      ['a', true],
      ['b', undefined],
    ]);
  });

  test("a direct task with its own agents is GRA013 at its agents; with the mission's, at its direct or header", () => {
    const own = withAgent('  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    agents    = [agents.expert]\n    direct    = true\n  }\n');
    expect(codes(loadHcl(own))).toEqual([`GRA013@${at(own, 'agents    = [')}`]);
    const inherited = withAgent('  agents = [agents.expert]\n  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    direct    = true\n  }\n');
    expect(codes(loadHcl(inherited))).toEqual([`GRA013@${at(inherited, 'direct    = true')}`]);
    const byDefault = withAgent('  agents = [agents.expert]\n  direct = true\n  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n  task "b" {\n    objective = "y"\n    tools     = [builtins.http.get]\n    agents    = []\n  }\n');
    expect(codes(loadHcl(byDefault))).toEqual([`GRA013@${at(byDefault, 'task "a"')}`]);
  });

  test('a direct task without tools is GRA014 (not GRA002); on a sequential iterator ITR009', () => {
    const noTools = withMission('  task "a" {\n    objective = "x"\n    direct    = true\n  }\n');
    expect(codes(loadHcl(noTools))).toEqual([`GRA014@${at(noTools, 'direct    = true')}`]);
    const walk = withMission('  dataset "d" {\n    items = [1]\n  }\n  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    direct    = true\n    iterator {\n      dataset = datasets.d\n    }\n  }\n');
    expect(codes(loadHcl(walk))).toEqual([`ITR009@${at(walk, 'direct    = true')}`]);
    const parallel = walk.replace('dataset = datasets.d\n', 'dataset  = datasets.d\n      parallel = true\n');
    expect(codes(loadHcl(parallel))).toEqual([]);
  });
});
