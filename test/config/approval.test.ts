// Approval in the config: `approval = true` on a tool block and a toolset marks the tools they bring,
// any route requiring approval wins over one that does not, and a task's or an agent's
// `approval = [...]` must name tools they hold (REF016 at the entry).

import { afterAll, expect, test } from 'vitest';
import { at, codes, loadHcl, MODEL, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const PAY = `tool "pay" {\n  implements = builtins.http.post\n  url        = "https://example.com/pay"\n  approval   = true\n}\n`;

test('a tool block and a toolset with approval = true mark the tools they bring; any route wins', () => {
  const src = withMission(`  task "t" {\n    objective = "x"\n    tools     = [builtins.files.write, tools.pay, toolsets.risky, builtins.files.read]\n  }`).replace(
    'mission "m"',
    `${PAY}toolset "risky" {\n  tools    = [builtins.files.write]\n  approval = true\n}\nmission "m"`,
  );
  const r = loadHcl(src);
  expect(codes(r)).toEqual([]);
  expect(r.graph!.toolsets[0]!.approval).toBe(true);
  expect(r.graph!.customTools[0]!.approval).toBe(true);
  expect(r.graph!.missions[0]!.tasks[0]!.worker!.tools).toEqual([
    // Listed directly first (via task), and the toolset's route requiring approval still wins.
    { ref: 'builtins.files.write', via: 'task', approval: 'toolset:risky' },
    { ref: 'tools.pay', via: 'task', approval: 'tool' },
    { ref: 'builtins.files.read', via: 'task' },
  ]);
});

test("a task's approval list takes builtins, toolsets and mcp .all, each among the tools it holds", () => {
  const src = withMission(`  task "t" {\n    objective = "x"\n    tools     = [builtins.http.all]\n    approval  = [builtins.http.post, builtins.http.delete]\n  }`);
  const r = loadHcl(src);
  expect(codes(r)).toEqual([]);
  expect(r.graph!.missions[0]!.tasks[0]!.approval).toEqual([
    { ref: 'builtins.http.post', via: 'task' },
    { ref: 'builtins.http.delete', via: 'task' },
  ]);
});

test('an approval entry the task does not hold is REF016 at the entry', () => {
  const src = withMission(`  task "t" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    approval  = [builtins.http.get, builtins.files.write]\n  }`);
  expect(codes(loadHcl(src))).toEqual([`REF016@${at(src, 'builtins.files.write')}`]);
});

test("an agent's approval list is checked against the agent's tools", () => {
  const src = `${MODEL}agent "clerk" {\n  model       = models.claude.claude_sonnet_5_5\n  personality = "p"\n  tools       = [builtins.files.read]\n  approval    = [builtins.files.read, builtins.http.put]\n}\n`;
  expect(codes(loadHcl(src))).toEqual([`REF016@${at(src, 'builtins.http.put')}`]);
  const valid = loadHcl(src.replace(', builtins.http.put]', ']'));
  expect(valid.graph!.agents[0]!.approval).toEqual([{ ref: 'builtins.files.read', via: 'agent:clerk' }]);
});

test('approval on a tool block must be a bool', () => {
  const src = `${MODEL}tool "pay" {\n  implements = builtins.http.post\n  url        = "https://example.com/pay"\n  approval   = "yes"\n}\n`;
  expect(codes(loadHcl(src)).length).toBe(1);
});
