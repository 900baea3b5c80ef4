// `squadron fmt` through the built CLI: rewrites what is not formatted (keeping the file's mode),
// lists what it changed, --check changes nothing and fails, a broken file is reported and left as
// it was, standard input is formatted to standard output, and the JSON document says it all.

import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { CLI, REPO_ROOT, runCli, tempDir } from '../support/cli.js';

const UGLY = 'model "m" {\nprovider="anthropic"\n  api_key = "k" # the key\n}\n';
const PRETTY = 'model "m" {\n  provider = "anthropic"\n  api_key  = "k" # the key\n}\n';

function project(files: Record<string, string>): string {
  const dir = tempDir('squadron-fmt-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('squadron fmt', () => {
  test('rewrites unformatted files in place, keeps their mode, and names them', async () => {
    const dir = project({ 'a.hcl': UGLY, 'sub/b.hcl': PRETTY, 'node_modules/x/c.hcl': UGLY });
    chmodSync(join(dir, 'a.hcl'), 0o640);
    const r = await runCli(['fmt'], { cwd: dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'a.hcl\n', '']);
    expect(readFileSync(join(dir, 'a.hcl'), 'utf8')).toBe(PRETTY);
    expect(statSync(join(dir, 'a.hcl')).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(dir, 'node_modules/x/c.hcl'), 'utf8')).toBe(UGLY);
    const again = await runCli(['fmt'], { cwd: dir });
    expect([again.code, again.stdout]).toEqual([0, '']);
  });

  test('--check changes nothing, lists the files and exits 1; 0 once formatted', async () => {
    const dir = project({ 'a.hcl': UGLY });
    const r = await runCli(['fmt', '--check', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('a.hcl\n');
    expect(r.stderr).toBe('1 file is not formatted; run squadron fmt to fix\n');
    expect(readFileSync(join(dir, 'a.hcl'), 'utf8')).toBe(UGLY);
    writeFileSync(join(dir, 'a.hcl'), PRETTY);
    expect((await runCli(['fmt', '--check'], { cwd: dir })).code).toBe(0);
  });

  test('a file with syntax errors is reported with its position and left byte for byte', async () => {
    const broken = 'model "m" {\n  provider = "anthropic\n}\n';
    const dir = project({ 'bad.hcl': broken, 'ok.hcl': UGLY });
    const r = await runCli(['fmt'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bad.hcl:2:24: error[SYN004]');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(dir, 'bad.hcl'), 'utf8')).toBe(broken);
    expect(readFileSync(join(dir, 'ok.hcl'), 'utf8')).toBe(PRETTY);
  });

  test('a FIFO or a binary file named .hcl is reported, never waited on, and the others are still formatted', async () => {
    const dir = project({ 'ok.hcl': UGLY });
    expect(spawnSync('mkfifo', [join(dir, 'pipe.hcl')]).status).toBe(0);
    writeFileSync(join(dir, 'blob.hcl'), Buffer.from([0xff, 0xfe, 0x00, 0x81]));
    // In a folder only regular files are config files; named, a FIFO is refused without opening it.
    const r = await runCli(['fmt'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('blob.hcl: error[FIL008]');
    expect(readFileSync(join(dir, 'ok.hcl'), 'utf8')).toBe(PRETTY);
    const named = await runCli(['fmt', 'pipe.hcl', 'blob.hcl'], { cwd: dir });
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/pipe\.hcl: error\[FIL004\]: config path .*pipe\.hcl is not a regular file or a directory/);
    expect(named.stderr).toContain('blob.hcl: error[FIL008]');
  });

  test('- formats standard input to standard output', () => {
    const r = spawnSync(process.execPath, [CLI, 'fmt', '-'], { input: UGLY, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect([r.status, r.stdout]).toEqual([0, PRETTY]);
  });

  test('--json prints one document with each file and its status', async () => {
    const dir = project({ 'a.hcl': UGLY, 'b.hcl': PRETTY });
    const r = await runCli(['fmt', '--check', '--json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      schema_version: 1,
      check: true,
      files: [
        { path: 'a.hcl', status: 'formatted' },
        { path: 'b.hcl', status: 'unchanged' },
      ],
      diagnostics: [],
    });
  });

  test('aligns = over consecutive one-line attributes: a heredoc ends the run, the lines below its body align on their own', async () => {
    const given = 'task "t" {\n  a = 1\n  objective = <<EOT\n  long = text\nEOT\n  tools = []\n  bb = 2\n}\n';
    const dir = project({ 'a.hcl': given });
    const r = await runCli(['fmt', 'a.hcl'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'a.hcl'), 'utf8')).toBe('task "t" {\n  a         = 1\n  objective = <<EOT\n  long = text\nEOT\n  tools = []\n  bb    = 2\n}\n');
  });

  test('--diff prints a unified diff of each change; with --check it changes nothing', async () => {
    const dir = project({ 'a.hcl': UGLY, 'b.hcl': PRETTY });
    const r = await runCli(['fmt', '--check', '--diff'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('--- a.hcl\n+++ a.hcl (formatted)\n@@ -1,4 +1,4 @@\n model "m" {\n-provider="anthropic"\n-  api_key = "k" # the key\n+  provider = "anthropic"\n+  api_key  = "k" # the key\n }\n');
    expect(readFileSync(join(dir, 'a.hcl'), 'utf8')).toBe(UGLY);
    const json = JSON.parse((await runCli(['fmt', '--check', '--diff', '--json'], { cwd: dir })).stdout) as { files: { path: string; diff?: string }[] };
    expect(json.files.find((f) => f.path === 'a.hcl')?.diff).toBe(r.stdout);
    const written = await runCli(['fmt', '--diff'], { cwd: dir });
    expect([written.code, written.stdout]).toEqual([0, r.stdout]);
    expect(readFileSync(join(dir, 'a.hcl'), 'utf8')).toBe(PRETTY);
  });

  test('honours .squadronignore as validate does; the repository root, with its own, is all formatted', async () => {
    const dir = project({ 'a.hcl': PRETTY, 'fixtures/odd.hcl': UGLY, '.squadronignore': 'fixtures/\n' });
    const r = await runCli(['fmt', '--check'], { cwd: dir });
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'fixtures/odd.hcl'), 'utf8')).toBe(UGLY);
    const root = await runCli(['fmt', '--check', '.'], { cwd: REPO_ROOT });
    expect([root.code, root.stdout, root.stderr]).toEqual([0, '', '']);
  });
});
