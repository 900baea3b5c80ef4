// Hostile text and hostile configs through the CLI: escape sequences from a model or a tool never
// reach the terminal (whatever command prints them), and a tiny config made of `${` does not flood
// it or take the process's memory.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { fakeModelBlock } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

// Clear screen, window title, clipboard (OSC 52), a carriage-return overwrite, an 8-bit CSI, a bell.
const HOSTILE = 'safe\u001b[2J\u001b]0;owned\u0007\u001b]52;c;ZWNobyBwd25lZA==\u0007 text\rFAKE \u009b31mred\u0007';

describe('terminal escapes from tools and models', () => {
  let server: FakeModelServer;
  let dir = '';
  let runId = '';

  beforeAll(async () => {
    const script = turnScript({
      'commander of task "echo"': [callAgent('worker', 'Write and read the file'), () => taskComplete(`done ${HOSTILE}`)],
      'worker agent of task "echo"': [
        toolCall('builtins_files_write', { path: 'evil.txt', content: HOSTILE }),
        toolCall('builtins_files_read', { path: 'evil.txt' }),
        { text: `read it: ${HOSTILE}` },
      ],
    });
    server = await startFakeModelServer({ respond: script.respond });
    dir = tempDir();
    writeFileSync(
      join(dir, 'mission.hcl'),
      `${fakeModelBlock(server)}mission "escapes" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "echo" {
    objective = "echo a file"
    tools     = [builtins.files.write, builtins.files.read]
  }
}`,
    );
    const result = await runCli(['run', dir, '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    runId = JSON.parse(result.stdout).run_id as string;
  });

  afterAll(async () => {
    await server.close();
  });

  it('inspect --transcript shows the text without a single control character but newlines and tabs', async () => {
    const shown = await runCli(['inspect', runId, '--transcript'], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('safe');
    expect(shown.stdout).toContain('FAKE');
    expect(shown.stdout).toContain('read it:');
    expect(shown.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('plain inspect and runs print no control characters either', async () => {
    for (const args of [['inspect', runId], ['runs']]) {
      const shown = await runCli(args, { cwd: dir });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout + shown.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });

  it('--json keeps the text whole, every control character escaped (the same JSON value)', async () => {
    const json = await runCli(['inspect', runId, '--transcript', '--json'], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
  });
});

describe('squadron docs security', () => {
  it('prints the page stating each guarantee', async () => {
    const r = await runCli(['docs', 'security'], { cwd: tempDir() });
    expect(r.code, r.stderr).toBe(0);
    for (const heading of ['The workspace', 'hosts they may reach', 'redirects', 'Custom tool URLs', 'what is redacted, and where', 'A full disk']) expect(r.stdout).toContain(heading);
  });
});

describe('a tiny hostile config', () => {
  for (const [label, repeats] of [
    ['8 KB', 4_000],
    ['100 KB', 50_000],
  ] as const) {
    it(`a ${label} line of \${ lists at most 50 errors, each excerpt cut around its column, and ends`, async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'main.hcl'), `x = "${'${'.repeat(repeats)}"\n`);
      // The limit is generous (a busy machine); today's main needs minutes and gigabytes for 100 KB.
      const result = await runCli(['validate', dir], { cwd: dir, timeoutMs: 240_000 });
      expect(result.code).toBe(1);
      const listed = result.stderr.match(/^main\.hcl:\d+:\d+: error\[/gm) ?? [];
      expect(listed.length).toBe(51);
      expect(result.stderr).toMatch(/error\[FIL011\]: … and [\d,]+ more errors in this file, not listed/);
      // 51 diagnostics with a windowed excerpt each: some kilobytes, not megabytes.
      expect(result.stderr.length).toBeLessThan(60_000);
      const json = await runCli(['validate', dir, '--json'], { cwd: dir, timeoutMs: 240_000 });
      expect((JSON.parse(json.stdout) as { diagnostics: unknown[] }).diagnostics).toHaveLength(51);
    }, 600_000);
  }
});
