// Compaction and pruning settings through the CLI: plan shows the thresholds each session will use
// and where each comes from (the model's window from the catalog or a model block's context_window;
// the block that set compaction or pruning, or the default), and validate refuses bad figures at
// their position with a hint.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, removeProjects, writeProject } from '../support/e2eProject.js';

afterAll(removeProjects);

const hcl = (commander: string, workerPruning = '    pruning {\n      prune_on = 8\n      prune_to = 3\n    }') => `model "fake" {
  provider = "anthropic"
  api_key  = "k"
}
model "local" {
  provider       = "openai"
  api_key        = "k"
  base_url       = "http://127.0.0.1:1/v1"
  aliases        = { small = "my-local-model" }
  context_window = 16000
}
agent "other" {
  model       = models.local.small
  personality = "A second opinion."
  compaction {
    token_limit    = 9000
    turn_retention = 2
    summarize      = true
  }
}
mission "m" {
  commander {
    model = ${ANTHROPIC_MODEL}
${commander}
  }
  agent_defaults {
${workerPruning}
  }
  task "use" {
    objective = "Look at the customers."
    tools     = [builtins.utils.current_time]
    agents    = [agents.other]
  }
}
`;

interface ContextJson {
  window: number;
  window_via: string;
  compaction: { token_limit: number; turn_retention: number; summarize: boolean; via: string };
  pruning?: { prune_on: number; prune_to: number; via: string };
}

describe('compaction and pruning through the CLI', () => {
  it("plan shows each session's thresholds and where they come from", async () => {
    const dir = writeProject({ 'mission.hcl': hcl('') });
    const json = await runCli(['plan', dir, '--json'], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const task = (JSON.parse(json.stdout) as { tasks: { commander: { context: ContextJson }; agents: { name: string; context: ContextJson }[] }[] }).tasks[0]!;
    // The default follows the window (Claude Sonnet 4.6: 1M): room for the reply (8,192), then 80% of the rest.
    expect(task.commander.context).toEqual({ window: 1_000_000, window_via: 'catalog', compaction: { token_limit: 793_446, turn_retention: 4, summarize: false, via: 'default' } });
    expect(task.agents.map((a) => [a.name, a.context])).toEqual([
      ['worker', { window: 1_000_000, window_via: 'catalog', compaction: { token_limit: 793_446, turn_retention: 4, summarize: false, via: 'default' }, pruning: { prune_on: 8, prune_to: 3, via: 'agent_defaults' } }],
      ['other', { window: 16_000, window_via: 'model block', compaction: { token_limit: 9000, turn_retention: 2, summarize: true, via: 'agent' } }],
    ]);
    const text = await runCli(['plan', dir], { cwd: dir });
    expect(text.stdout).toContain('context window 1,000,000 tokens (catalog) · compacted above 793,446 input tokens, last 4 turns kept (default)');
    expect(text.stdout).toContain('pruned at 8 turns to 3 (agent_defaults pruning)');
    expect(text.stdout).toContain("context window 16,000 tokens (model block) · compacted above 9,000 input tokens, last 2 turns kept, summarized by the model (agent's compaction)");
  });

  it('plan shows the window of each model, which differs within a family', async () => {
    const dir = writeProject({
      'mission.hcl': `model "claude" {
  provider = "anthropic"
  api_key  = "k"
}
model "gpt" {
  provider = "openai"
  api_key  = "k"
}
agent "quick" {
  model       = models.claude.claude_haiku_4_5
  personality = "Fast."
}
agent "deep" {
  model       = models.claude.claude_opus_4_6
  personality = "Thorough."
}
agent "small" {
  model       = models.gpt.gpt_5_4_mini
  personality = "Cheap."
}
mission "m" {
  commander { model = models.gpt.gpt_5_4 }
  task "use" {
    objective = "Look at the customers."
    tools     = [builtins.utils.current_time]
    agents    = [agents.quick, agents.deep, agents.small]
  }
}
`,
    });
    const json = await runCli(['plan', dir, '--json'], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const task = (JSON.parse(json.stdout) as { tasks: { commander: { context: ContextJson }; agents: { name: string; context: ContextJson }[] }[] }).tasks[0]!;
    expect(task.commander.context.window).toBe(1_050_000);
    const windows = Object.fromEntries(task.agents.map((a) => [a.name, [a.context.window, a.context.window_via]]));
    expect(windows).toMatchObject({ quick: [200_000, 'catalog'], deep: [1_000_000, 'catalog'], small: [400_000, 'catalog'] });
    const text = await runCli(['plan', dir], { cwd: dir });
    expect(text.stdout).toContain('context window 1,050,000 tokens (catalog)');
    expect(text.stdout).toContain('context window 200,000 tokens (catalog)');
  });

  it('validate refuses prune_to not below prune_on, and a token_limit below 1,000, at their positions', async () => {
    const dir = writeProject({
      'mission.hcl': hcl('    compaction {\n      token_limit = 500\n    }', '    pruning {\n      prune_on = 4\n      prune_to = 4\n    }'),
    });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    const out = result.stdout + result.stderr;
    expect(out).toContain('mission.hcl:25:21: error[SCH013]: token_limit must be at least 1000, got 500');
    expect(out).toContain('mission.hcl:31:18: error[SCH013]: prune_to must be less than prune_on (4), got 4');
    expect(out).toContain('once a request holds prune_on model turns, the oldest are dropped until prune_to remain');
  });

  it('validate names an unknown attribute of the blocks with the nearest one', async () => {
    const dir = writeProject({ 'mission.hcl': hcl('    compaction {\n      turn_retentions = 3\n    }') });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/mission\.hcl:25:7: error\[SCH001\]: .*turn_retentions[\s\S]*turn_retention/);
  });
});
