// End-to-end: `builtins.files.write` on a full disk. The workspace is a small tmpfs mounted by the
// test (CI runs as root) and filled until one page is free, so a 6,000-byte write gets a short
// write(2) (4,096 bytes) and then ENOSPC. The call must fail with a message the model can read, and
// the old file must be left as it was — for a replace and for an append — with no temporary file
// left behind; a write that fits still succeeds, whole.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, latestToolResults, removeProjects, requestsOf, resultText, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 120_000 });
afterAll(removeProjects);

const OLD = 'old content, kept whole\n';
const BIG = 'x'.repeat(5_999) + '\n';

describe.runIf(process.platform === 'linux' && process.getuid?.() === 0)('builtins.files.write on a full disk (a small tmpfs)', () => {
  it('fails the call and keeps the old file whole, for a replace and an append', async () => {
    const tmp = tempDir('squadron-full-');
    const ws = join(tmp, 'ws');
    mkdirSync(ws);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', ws]);
    try {
      writeFileSync(join(ws, 'notes.txt'), OLD);
      writeFileSync(join(ws, 'small.txt'), OLD);
      // Fill the file system until one page is free.
      const fs = statfsSync(ws);
      writeFileSync(join(ws, 'filler.bin'), Buffer.alloc((fs.bavail - 1) * fs.bsize));
      expect(statfsSync(ws).bavail).toBe(1);

      const turns = turnScript({
        'commander of task "t"': [callAgent('worker', 'Write the files.'), taskComplete('Finished.')],
        'worker agent of task "t"': [
          { toolCalls: [{ name: 'builtins_files_write', input: { path: 'notes.txt', content: BIG } }] },
          { toolCalls: [{ name: 'builtins_files_write', input: { path: 'notes.txt', content: BIG, append: true } }] },
          { toolCalls: [{ name: 'builtins_files_write', input: { path: 'small.txt', content: 'new\n', append: true } }] },
          { text: 'Done.' },
        ],
      });
      const server = await startFakeModelServer({ respond: turns.respond });
      try {
        const dir = writeProject({
          'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "t" {
    objective = "Write the files."
    tools     = [builtins.files.write]
  }
}
`,
        });
        const run = await runCli(['run', dir, '--workspace', ws, '--db', join(tmp, 'squadron.db')], { cwd: dir });
        expect(turns.problems).toEqual([]);
        expect(run.code, run.stderr).toBe(0);
        const results = requestsOf(server, workerOf('t')).slice(1).map((r) => resultText(latestToolResults(r)[0]));
        expect(results).toEqual([
          'could not write notes.txt: no space left on device (ENOSPC)',
          'could not write notes.txt: no space left on device (ENOSPC)',
          `Appended 4 bytes to small.txt`,
        ]);
        expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe(OLD);
        expect(readFileSync(join(ws, 'small.txt'), 'utf8')).toBe(`${OLD}new\n`);
        expect(readdirSync(ws).filter((name) => name.startsWith('.squadron-write-'))).toEqual([]);
      } finally {
        await server.close();
      }
    } finally {
      execFileSync('umount', [ws]);
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
