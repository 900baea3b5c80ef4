// End-to-end: an agent's own `skill "name" { … }` block (as Go Squadron configs write it). The agent
// sees it in its skill catalog and loads it with load_skill (instructions read with load()); a skill
// block in an agent named like a global skill is refused at its line.

import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { agentOf, ANTHROPIC_MODEL, commanderOf, fakeModelBlock, removeProjects, requestsOf, writeProject } from '../support/e2eProject.js';
import { withFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 120_000 });
afterAll(removeProjects);

const config = (modelBlock: string, global = ''): string => `${modelBlock}${global}
agent "custom" {
  model       = ${ANTHROPIC_MODEL}
  personality = "helpful"

  skill "helper" {
    description  = "How to help"
    instructions = load("./helper.md")
  }
}

mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  agents = [agents.custom]
  task "t" { objective = "Get help." }
}
`;

describe("an agent's own skill blocks", () => {
  it('are in its catalog and load with load_skill; one named like a global skill is an error', async () => {
    let loaded = '';
    const script = turnScript({
      [commanderOf('t')]: [callAgent('custom', 'Help me.'), taskComplete('helped')],
      [agentOf('custom')]: [
        toolCall('load_skill', { name: 'helper' }),
        (req) => {
          loaded = lastToolResult(req);
          return { text: 'helped' };
        },
      ],
    });
    await withFakeModelServer(script.respond, async (server) => {
      const dir = writeProject({ 'main.hcl': config(fakeModelBlock(server)), 'helper.md': 'Always answer in haiku.\n' });
      const r = await runCli(['run', dir], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      expect(requestsOf(server, agentOf('custom'))[0]!.canonical.system).toContain('How to help');
      expect(loaded).toContain('Always answer in haiku.');

      const clash = writeProject({ 'main.hcl': config(fakeModelBlock(server), '\nskill "helper" {\n  description  = "global"\n  instructions = "x"\n}\n'), 'helper.md': 'x\n' });
      const v = await runCli(['validate', clash], { cwd: clash });
      expect(v.code).toBe(1);
      expect(v.stderr).toMatch(/main\.hcl:\d+:9: error\[SCH008\]: agent "custom": its skill "helper" has the name of a global skill/);
    });
  });
});
