// `squadron init` as a new user runs it: the starter project validates without any key set, an
// example copied with --example runs (the quickstart offline, from its cassette), and existing
// files are never overwritten — the command is refused and nothing is written.

import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';

const SLOW = { timeout: 180_000 };
const NO_KEYS = { SQUADRON_VAR_anthropic_api_key: undefined, SQUADRON_VAR_openai_api_key: undefined };

describe('squadron init', () => {
  it('creates a starter project that validates with no key set and says what to do next', SLOW, async () => {
    const cwd = tempDir();
    const init = await runCli(['init', 'my-project'], { cwd, env: NO_KEYS });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('created a starter project (anthropic) in my-project: mission.hcl, README.md');
    expect(init.stdout).toContain('next: squadron validate my-project');
    const mission = readFileSync(join(cwd, 'my-project', 'mission.hcl'), 'utf8');
    expect(mission).toMatch(/secret\s+= true/);
    expect(mission).toContain('api_key  = vars.anthropic_api_key');
    expect(mission).toMatch(/toolset "\w+"/);
    expect(readFileSync(join(cwd, 'my-project', 'README.md'), 'utf8')).toContain('squadron run .');

    const validate = await runCli(['validate', 'my-project', '--offline'], { cwd, env: NO_KEYS });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('config is valid');
    expect(validate.stdout).toMatch(/mission starter: .*2 tasks/);
  });

  it('writes the starter for Gemini with --provider gemini: block, key variable and models follow, and it validates', SLOW, async () => {
    const cwd = tempDir();
    const init = await runCli(['init', 'gp', '--provider', 'gemini'], { cwd, env: { SQUADRON_VAR_gemini_api_key: undefined } });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('created a starter project (gemini) in gp: mission.hcl, README.md');
    const mission = readFileSync(join(cwd, 'gp', 'mission.hcl'), 'utf8');
    expect(mission).toContain('model "gemini" {\n  provider = "gemini"\n  api_key  = vars.gemini_api_key\n}');
    expect(mission).toContain('model = models.gemini.gemini_3_flash_preview');
    expect(mission).not.toMatch(/anthropic|claude/i);
    expect(readFileSync(join(cwd, 'gp', 'README.md'), 'utf8')).toContain('export SQUADRON_VAR_gemini_api_key=');
    const validate = await runCli(['validate', 'gp', '--offline'], { cwd, env: { SQUADRON_VAR_gemini_api_key: undefined } });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout + validate.stderr).not.toContain('MOD00');

    const unknown = await runCli(['init', 'x', '--provider', 'gemeni'], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('gemini');
    expect(existsSync(join(cwd, 'x'))).toBe(false);
  });

  it('offers the providers: --provider openai and --provider ollama starters validate and name their API', SLOW, async () => {
    const cwd = tempDir();
    const openai = await runCli(['init', 'oa', '--provider', 'openai'], { cwd, env: NO_KEYS });
    expect(openai.code, openai.stderr).toBe(0);
    expect(openai.stdout).toContain('created a starter project (openai) in oa');
    const oaMission = readFileSync(join(cwd, 'oa', 'mission.hcl'), 'utf8');
    expect(oaMission).toContain('api_key  = vars.openai_api_key');
    expect(oaMission).not.toContain('anthropic');
    expect(readFileSync(join(cwd, 'oa', 'README.md'), 'utf8')).toContain('SQUADRON_VAR_openai_api_key');
    const oaValid = await runCli(['validate', 'oa', '--offline'], { cwd, env: NO_KEYS });
    expect(oaValid.code, oaValid.stderr).toBe(0);
    expect(oaValid.stdout).toContain('openai (openai, responses API');
    expect(oaValid.stdout).toMatch(/mission starter: commander openai\.gpt_5, 2 tasks/);

    const ollama = await runCli(['init', 'local', '--provider', 'ollama'], { cwd, env: NO_KEYS });
    expect(ollama.code, ollama.stderr).toBe(0);
    const olMission = readFileSync(join(cwd, 'local', 'mission.hcl'), 'utf8');
    expect(olMission).toContain('provider       = "ollama"');
    expect(olMission).not.toMatch(/api_key|anthropic/);
    expect(readFileSync(join(cwd, 'local', 'README.md'), 'utf8')).toContain('ollama pull qwen3:8b');
    const olValid = await runCli(['validate', 'local', '--offline'], { cwd, env: NO_KEYS });
    expect(olValid.code, olValid.stderr).toBe(0);
    expect(olValid.stdout).toContain('ollama (ollama, chat completions API)');
    expect(olValid.stderr).toBe('');

    const help = await runCli(['init', '--help'], { cwd });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('(choices: "anthropic", "openai", "gemini", "ollama", default: "anthropic")');
    const both = await runCli(['init', 'x', '--provider', 'openai', '--example', 'quickstart'], { cwd });
    expect(both.code).toBe(2);
    expect(existsSync(join(cwd, 'x'))).toBe(false);
  });

  it('copies an example with --example; the quickstart then runs offline from its cassette', SLOW, async () => {
    const cwd = tempDir();
    const init = await runCli(['init', 'qs', '--example', 'quickstart'], { cwd });
    expect(init.code, init.stderr).toBe(0);
    expect(readdirSync(join(cwd, 'qs')).sort()).toEqual(['cassette.jsonl', 'mission.hcl', 'quickstart.sqtest.hcl']);
    const run = await runCli(['run', 'qs', '--json'], { cwd, env: NO_KEYS });
    expect(run.stderr).toContain('replays its responses from');
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as { status: string; tasks: Record<string, { status: string }> };
    expect(doc.status).toBe('completed');
    expect(doc.tasks['review']!.status).toBe('completed');
    // The copy is the user's: the run's database lives beside it, not in the package's example.
    expect(existsSync(join(cwd, 'qs', '.squadron'))).toBe(true);
    expect(readFileSync(join(cwd, 'qs', 'cassette.jsonl'), 'utf8')).toBe(readFileSync(join(REPO_ROOT, 'examples', 'quickstart', 'cassette.jsonl'), 'utf8'));
    // The example's test comes with it and passes in the copy.
    const test = await runCli(['test', 'qs'], { cwd, env: NO_KEYS });
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toContain('1 passed, 0 failed');
  });

  it('refuses, in one line and exit 2, to write over an existing file, and writes nothing', SLOW, async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'mine'));
    writeFileSync(join(cwd, 'mine', 'mission.hcl'), '# my own mission\n');
    const r = await runCli(['init', 'mine'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: mine/mission.hcl already exists; init never overwrites files: choose a new or empty directory\n');
    expect(readFileSync(join(cwd, 'mine', 'mission.hcl'), 'utf8')).toBe('# my own mission\n');
    expect(readdirSync(join(cwd, 'mine'))).toEqual(['mission.hcl']);
  });

  it('names the examples for an unknown --example', SLOW, async () => {
    const cwd = tempDir();
    const r = await runCli(['init', 'x', '--example', 'quikstart'], { cwd });
    expect(r.code).toBe(2);
    const examples = readdirSync(join(REPO_ROOT, 'examples')).sort();
    expect(r.stderr).toBe(`error: unknown example "quikstart". did you mean quickstart? Examples: ${examples.join(', ')}\n`);
    expect(existsSync(join(cwd, 'x'))).toBe(false);
  });

  it('an example made inside a project does not join it: its folder goes into that project\'s .squadronignore, and run . still runs the one mission', SLOW, async () => {
    const cwd = tempDir();
    const made = await runCli(['init', '.', '--example', 'quickstart'], { cwd });
    expect(made.code, made.stderr).toBe(0);
    const sub = await runCli(['init', '--example', 'quickstart', 'sub', '--json'], { cwd });
    expect(sub.code, sub.stderr).toBe(0);
    expect(JSON.parse(sub.stdout)).toEqual({
      schema_version: 1,
      created: 'sub',
      example: 'quickstart',
      files: ['cassette.jsonl', 'mission.hcl', 'quickstart.sqtest.hcl'],
      ignored_in: '.squadronignore',
      ignore_pattern: '/sub/',
      next: ['squadron validate sub', 'squadron plan sub', 'squadron run sub'],
    });
    expect(readFileSync(join(cwd, '.squadronignore'), 'utf8')).toContain('/sub/\n');
    // The project loads its own mission only (no "which mission?"), and the new folder is a project of its own.
    const run = await runCli(['run', '.', '--json'], { cwd, env: NO_KEYS });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/mission.*sub|duplicate/i);
    const inSub = await runCli(['validate', 'sub', '--offline'], { cwd });
    expect(inSub.code, inSub.stderr).toBe(0);
    // Said in words without --json.
    const other = await runCli(['init', '--example', 'quickstart', 'deeper/two'], { cwd });
    expect(other.stdout).toContain('deeper/two is inside the project in .: added /deeper/two/ to .squadronignore, so that project does not load it');
  });
});
