// What `squadron validate <folder>` loads and how it reports a broken file, through the built CLI:
// skipped folders (dot-folders, node_modules, .squadronignore) are announced, one syntax error does
// not cascade into errors about what the broken block lacks, and hints always name a way out.

import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.js';
import { MODEL, removeTempProjects, tempProject, withMission } from './support.js';

afterAll(removeTempProjects);

const valid = withMission('  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n');
const broken = 'mission {\n  oops = \n';

describe('validate of a folder', () => {
  test('skips node_modules, dot-folders and .squadronignore paths, and says what it loaded from where', async () => {
    const dir = tempProject({
      'main.hcl': valid,
      'node_modules/pkg/x.hcl': broken,
      '.cache/x.hcl': broken,
      'test/fixtures/bad.hcl': broken,
      'vendor/deep/also.hcl': broken,
      'vendor/keep.txt': 'not hcl',
      'notes/extra.hcl': broken,
      '.squadronignore': '# fixtures and vendored configs\ntest/fixtures/\nvendor\n*.hcl.bak\nextra.hcl\n',
    });
    const r = await runCli(['validate', '.'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')[0]).toBe(
      '1 file loaded from . (skipped: .cache, node_modules, notes/extra.hcl by .squadronignore, test/fixtures by .squadronignore, vendor by .squadronignore)',
    );
    const json = JSON.parse((await runCli(['validate', '--format', 'json'], { cwd: dir })).stdout) as { files: unknown };
    expect(json.files).toEqual({
      root: '.',
      loaded: 1,
      skipped: [
        { path: '.cache', reason: 'dot-folder' },
        { path: 'node_modules', reason: 'node_modules' },
        { path: 'notes/extra.hcl', reason: 'squadronignore' },
        { path: 'test/fixtures', reason: 'squadronignore' },
        { path: 'vendor', reason: 'squadronignore' },
      ],
    });
  });

  test('without .squadronignore every folder below is loaded, and the count says so on failure too', async () => {
    const dir = tempProject({ 'main.hcl': valid, 'test/fixtures/bad.hcl': broken });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('test/fixtures/bad.hcl:');
    expect(r.stderr).toMatch(/\n2 files loaded from \.\nconfig is invalid: \d+ errors?\n$/);
  });

  test('an anchored pattern skips only that path; a negated one is a warning, not a silent no-op', async () => {
    const dir = tempProject({ 'main.hcl': valid, 'a/fixtures/bad.hcl': broken, '.squadronignore': '/fixtures\n!a/fixtures\n' });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('.squadronignore:2:1: warning[FIL010]: negated patterns (!) are not supported');
    expect(r.stderr).toContain('a/fixtures/bad.hcl:');
  });
});

describe('a syntax error does not cascade', () => {
  test('an unclosed quote is reported once, without "no work source" for its task', async () => {
    const src = `${MODEL}mission "m" {\n  commander {\n    model = models.claude.claude_sonnet_5_5\n  }\n  task "a" {\n    objective = "Do the thing\n    tools = [builtins.http.get]\n  }\n  task "b" {\n    depends_on = [tasks.a]\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n}\n`;
    const dir = tempProject({ 'main.hcl': src });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    const codes = [...r.stderr.matchAll(/error\[(\w+)\]/g)].map((m) => m[1]);
    expect(codes).toEqual(['SYN004', 'SYN005']);
    expect(r.stderr).toMatch(/more errors? like this one not shown/);
    expect(r.stderr).not.toContain('GRA002');
  });

  test('a block without a syntax error still gets its absence checks', async () => {
    const src = `${MODEL}mission "m" {\n  commander {\n    model = models.claude.claude_sonnet_5_5\n  }\n  task "a" {\n    objective = "x"\n  }\n  task "b" {\n    objective = "x"\n    tools = [builtins.http.get,]]\n  }\n}\n`;
    const dir = tempProject({ 'main.hcl': src });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[GRA002]: task "a" has no work source');
    expect(r.stderr).not.toContain('task "b" has no work source');
  });
});

describe('hints', () => {
  test('an unknown attribute names the nearest attribute even when it is no close typo', async () => {
    const dir = tempProject({ 'main.hcl': valid.replace('objective = "x"', 'objective = "x"\n    timeout = 3') });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/hint: the nearest is \w+; known: objective, depends_on, agents, tools/);
  });

  test('a quoted task name in depends_on gets the reference written out', async () => {
    const two = withMission('  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n  task "b" {\n    depends_on = ["a"]\n    objective  = "y"\n    tools      = [builtins.http.get]\n  }\n');
    const dir = tempProject({ 'main.hcl': two });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"a" is a string, not a reference');
    expect(r.stderr).toContain('hint: write tasks.a without quotes');
  });
});
