// End-to-end: the file tools cannot be raced out of the workspace. While a worker reads
// `d/secret.txt` and writes `d/x<N>.txt` thousands of times, a local process swaps the folder `d`
// with a symbolic link to a folder outside (renameat2 RENAME_EXCHANGE, in a tight loop). Every call
// must either act inside the workspace or be refused: nothing outside is created, truncated or read,
// and the outside secret appears nowhere (output, database, logs, what the model received).
// Linux only: the swap needs renameat2, and descriptor paths need /proc/self/fd.

import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { runCli, tempDir } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, requestsOf, resultText, removeProjects, workerOf, writeProject, latestToolResults } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { startRenameExchanger } from '../support/renameExchanger.js';
import { callAgent, taskComplete, turnScript, type TurnReply } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });
afterAll(removeProjects);

const TURNS = 10;
const CALLS_PER_TURN = 200;
const INSIDE = 'inside-content';
const OUTSIDE_SECRET = 'OUTSIDE-SECRET-5b1e9c';

/** Every file under `dir` (recursively) with its content, for a before/after comparison. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const full = join(dir, entry);
    const info = lstatSync(full);
    out[entry] = info.isFile() ? `${info.mode.toString(8)} ${readFileSync(full, 'utf8')}` : info.isDirectory() ? 'dir' : 'other';
  }
  return out;
}

function containsSecret(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((entry) => {
    const full = join(dir, entry);
    return statSync(full).isFile() && readFileSync(full).includes(OUTSIDE_SECRET);
  });
}

describe.runIf(process.platform === 'linux')('file tools under a folder-swapping race', () => {
  it('never read, create or truncate anything outside the workspace over thousands of attempts', async () => {
    const tmp = tempDir('squadron-race-');
    const ws = join(tmp, 'ws');
    const outside = join(tmp, 'outside');
    mkdirSync(join(ws, 'd'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(ws, 'd', 'secret.txt'), INSIDE);
    writeFileSync(join(outside, 'secret.txt'), OUTSIDE_SECRET);
    // Half of the names the worker writes already exist outside (truncation would show), half do not (creation would).
    for (let n = 0; n < TURNS * CALLS_PER_TURN; n += 4) writeFileSync(join(outside, `x${n}.txt`), 'untouched');
    symlinkSync(outside, join(ws, 'd_alt'));
    const before = snapshot(outside);

    const calls = (turn: number) =>
      Array.from({ length: CALLS_PER_TURN }, (_, i) => {
        const n = turn * CALLS_PER_TURN + i;
        return n % 2 === 0
          ? { name: 'builtins_files_write', input: { path: `d/x${n}.txt`, content: `written-${n}` } }
          : { name: 'builtins_files_read', input: { path: 'd/secret.txt' } };
      });
    const worker: TurnReply[] = [...Array.from({ length: TURNS }, (_, t) => ({ toolCalls: calls(t) })), { text: 'Done.' }];
    const turns = turnScript({
      'commander of task "race"': [callAgent('worker', 'Read and write the files.'), taskComplete('Finished.')],
      'worker agent of task "race"': worker,
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "race" {
    objective = "Read d/secret.txt and write the d/x files."
    tools     = [builtins.files.read, builtins.files.write]
  }
}
`,
      });
      const racer = await startRenameExchanger(join(ws, 'd'), join(ws, 'd_alt'), 240);
      let swaps: number;
      let run;
      try {
        run = await runCli(['run', dir, '--workspace', ws], { cwd: dir, timeoutMs: 240_000 });
      } finally {
        swaps = await racer.stop();
      }
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);

      // Nothing outside changed, and the secret went nowhere.
      expect(snapshot(outside)).toEqual(before);
      expect(`${run.stdout}${run.stderr}`).not.toContain(OUTSIDE_SECRET);
      expect(containsSecret(dir)).toEqual([]);
      expect(JSON.stringify(server.requests)).not.toContain(OUTSIDE_SECRET);

      // Every call acted inside the workspace or was refused; the race really happened (both outcomes seen).
      const requests = requestsOf(server, workerOf('race'));
      const results = requests.slice(1).flatMap((r) => latestToolResults(r).map(resultText));
      expect(results).toHaveLength(TURNS * CALLS_PER_TURN);
      const real = lstatSync(join(ws, 'd')).isDirectory() ? join(ws, 'd') : join(ws, 'd_alt');
      const counts = { read: 0, wrote: 0, refused: 0 };
      results.forEach((text, n) => {
        if (n % 2 === 1 && text === INSIDE) counts.read++;
        else if (n % 2 === 0 && text === `Wrote ${`written-${n}`.length} bytes to d/x${n}.txt`) {
          counts.wrote++;
          expect(readFileSync(join(real, `x${n}.txt`), 'utf8')).toBe(`written-${n}`);
        } else {
          expect(text).toMatch(/^path "d\/(secret|x\d+)\.txt" (resolves outside the workspace directory \(through a symbolic link\)|goes through too many symbolic links)$/);
          counts.refused++;
        }
      });
      expect(readdirSync(real).filter((name) => name.startsWith('.squadron-write-'))).toEqual([]);
      console.log(`file race: ${swaps} swaps; ${counts.read} reads and ${counts.wrote} writes inside, ${counts.refused} refused`);
      expect(swaps).toBeGreaterThan(1000);
      expect(counts.refused).toBeGreaterThan(0);
      expect(counts.read + counts.wrote).toBeGreaterThan(0);
    } finally {
      await server.close();
      // rm never follows links: the link to outside is removed, not what it points at.
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
