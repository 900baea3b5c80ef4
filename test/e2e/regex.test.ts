// End-to-end: regular expressions cannot hang a command. HCL's replace/regex/regexall run on RE2
// (linear time), so the catastrophic-backtracking pattern (a+)+$ in a variable default or an
// objective leaves validate, plan and run responsive; a JSON Schema pattern from an MCP server is
// checked in bounded time too, and a run stays responsive to Ctrl-C. Bad patterns and failed
// matches are diagnostics with positions. Completion is asserted, never timing.

import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, latestToolResults, OFFLINE_MODEL_BLOCK, removeProjects, requestsOf, resultText, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, firstUserMessage, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 120_000 });
afterAll(removeProjects);

/** Exponential for a backtracking engine: 2^48 ways to split the a's before failing at the "!". */
const EVIL = `${'a'.repeat(48)}!`;
const PATTERN_SERVER = fileURLToPath(new URL('../support/mcpPatternServer.mjs', import.meta.url));

function project(model: string, extra = ''): string {
  return writeProject({
    'main.hcl': `${model}
variable "cleaned" {
  default = replace("${EVIL}", "/(a+)+$/", "x")
}
${extra}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "t" {
    objective = "Check \${vars.cleaned} \${replace("${EVIL}", "/(a+)+$/", "x")} \${replace("${EVIL}", "/a+/", "x")} \${regex("(?P<n>b+)", "abbc").n} \${length(regexall("(a|aa)+$", "${EVIL}"))}"
    tools     = [mcp.pat.lookup]
  }
}
`,
  });
}

const PATTERN_MCP = `mcp "pat" {
  command = "${process.execPath}"
  args    = ["${PATTERN_SERVER}"]
}
`;

describe('regular expressions in the config', () => {
  it('validate and plan finish on (a+)+$ in a variable default and an objective', async () => {
    const dir = project(OFFLINE_MODEL_BLOCK, PATTERN_MCP);
    const validate = await runCli(['validate', dir, '--offline']);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('config is valid');
    const plan = await runCli(['plan', dir, '--json', '--show-prompt']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`Check ${EVIL} ${EVIL} x! bb 0`);
  });

  it('reports a bad pattern and a failed match as errors at the argument', async () => {
    const dir = writeProject({
      'main.hcl': `${OFFLINE_MODEL_BLOCK}variable "a" {
  default = regex("(a", "x")
}
variable "b" {
  default = regex("[0-9]+", "none")
}
variable "c" {
  default = replace("x", "/(?=x)/", "y")
}
`,
    });
    const r = await runCli(['validate', dir, '--offline', '--format', 'json']);
    expect(r.code).toBe(1);
    const diags = (JSON.parse(r.stdout) as { diagnostics: { code: string; line: number; column: number; message: string }[] }).diagnostics;
    const errors = diags.filter((d) => d.code === 'EVAL006').map((d) => `${d.line}:${d.column} ${d.message.replace(/^.*failed: /, '')}`);
    expect(errors).toEqual([
      '6:19 invalid regular expression: missing closing ): `(a`.',
      '9:29 pattern did not match any part of the given string.',
      '12:26 invalid regular expression: invalid or unsupported Perl syntax: `(?=`.',
    ]);
  });
});

describe('a JSON Schema pattern from an MCP server', () => {
  it('is checked in bounded time, and the run still stops on SIGINT', async () => {
    let child: ChildProcess | undefined;
    let interrupted = false;
    const turns = turnScript({
      'commander of task "t"': [callAgent('worker', 'Look the codes up.')],
      'worker agent of task "t"': [
        { toolCalls: [{ name: 'mcp_pat_lookup', input: { code: EVIL } }, { name: 'mcp_pat_lookup', input: { code: 'aaa' } }] },
        // Answered slowly: the interrupt lands while this request is in flight.
        { text: 'Done.', delayMs: 5000 },
      ],
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      server.onRequest = (_n, req) => {
        const workerTurn = req.canonical.system.includes(workerOf('t')) && req.canonical.messages.some((m) => m.role === 'assistant');
        if (workerTurn && !interrupted) {
          interrupted = true;
          child?.kill('SIGINT');
        }
      };
      const dir = project(fakeModelBlock(server), PATTERN_MCP);
      const run = await runCli(['run', dir], { cwd: dir, onSpawn: (c) => (child = c) });
      expect(turns.problems).toEqual([]);
      expect(interrupted).toBe(true);
      expect(run.code, run.stderr).toBe(130);

      const commander = requestsOf(server, 'commander of task "t"')[0]!;
      expect(firstUserMessage(commander)).toContain(`Check ${EVIL} ${EVIL} x! bb 0`);
      const results = latestToolResults(requestsOf(server, workerOf('t'))[1]!);
      expect(results.map((r) => r.isError)).toEqual([true, false]);
      expect(resultText(results[0])).toContain('input.code: must match the pattern /^(a+)+$/');
      expect(resultText(results[1])).toBe('looked up {"code":"aaa"}');
    } finally {
      await server.close();
    }
  });
});
