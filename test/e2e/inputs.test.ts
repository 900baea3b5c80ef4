// End-to-end: mission inputs given with -i are never silently changed. A number a float64 cannot
// hold exactly is refused with one line naming the input, before anything runs; one that fits is
// passed through unchanged.

import { afterAll, describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, OFFLINE_MODEL_BLOCK, removeProjects, writeProject } from '../support/e2eProject.js';

vi.setConfig({ testTimeout: 60_000 });
afterAll(removeProjects);

const project = (): string =>
  writeProject({
    'main.hcl': `${OFFLINE_MODEL_BLOCK}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  input "n" {
    type = "number"
  }
  input "ids" {
    type    = "list"
    default = []
  }
  task "t" {
    objective = "Count to \${inputs.n} over \${jsonencode(inputs.ids)}."
    tools     = []
  }
}
`,
  });

describe('-i with numbers', () => {
  it('refuses a number that does not round-trip, naming the input, and runs nothing', async () => {
    const dir = project();
    const run = await runCli(['run', dir, '-i', 'n=99999999999999999999999'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'error: input "n": the number 99999999999999999999999 cannot be held exactly (it would become 99999999999999991611392); numbers keep about 15 significant digits; declare the input with type = "string" to keep every digit',
    );
    expect(existsSync(join(dir, '.squadron', 'squadron.db'))).toBe(false);
    const list = await runCli(['plan', dir, '-i', 'n=1', '-i', 'ids=[1, 12345678901234567890]'], { cwd: dir });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('input "ids": the number 12345678901234567890 cannot be held exactly');
  });

  it('passes a number that fits through exactly', async () => {
    const dir = project();
    const plan = await runCli(['plan', dir, '--json', '--show-prompt', '-i', 'n=9007199254740992', '-i', 'ids=[0.1, 2e3]'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Count to 9007199254740992 over [0.1,2000].');
  });
});
