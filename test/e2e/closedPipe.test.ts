// A reader that stops early (`squadron validate --json | head -1`) closes the pipe the CLI writes
// to. The CLI must then end quietly with 141 (128 + SIGPIPE), never with an EPIPE stack trace, on
// stdout and on stderr alike. And a reader that is merely slow gets every byte before the CLI exits.

import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { removeProjects, writeProject } from '../support/e2eProject.js';
import { hugeConfig } from '../support/hugeConfig.js';

afterAll(removeProjects);

/**
 * Thousands of errors: far more output than a pipe buffers, so the CLI is still writing when the
 * reader leaves. At most 50 are listed per file (FIL011), so they are spread over 100 files.
 */
function bigInvalidConfig(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 100; f++) {
    let hcl = '';
    for (let i = 0; i < 50; i++) hcl += `variable "v${f}_${i}" {\n  bogus = "x"\n}\n`;
    files[`part${f}.hcl`] = hcl;
  }
  return files;
}

/** Runs the CLI, reads `stream` up to its first line, then closes it; collects the other stream whole. */
function readFirstLineThenClose(args: string[], stream: 'stdout' | 'stderr'): Promise<{ code: number | null; firstLine: string; other: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const closing = child[stream];
    const other = stream === 'stdout' ? child.stderr : child.stdout;
    let head = '';
    let rest = '';
    closing.setEncoding('utf8').on('data', (chunk: string) => {
      if (closing.destroyed) return;
      head += chunk;
      if (head.includes('\n')) closing.destroy();
    });
    other.setEncoding('utf8').on('data', (chunk: string) => (rest += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`squadron ${args.join(' ')} did not end\n${rest}`));
    }, 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, firstLine: head.split('\n')[0]!, other: rest });
    });
  });
}

describe('a closed output pipe', () => {
  const dir = writeProject(bigInvalidConfig());

  it('ends validate --json quietly with 141 when stdout is closed after the first line', async () => {
    const result = await readFirstLineThenClose(['validate', dir, '--json'], 'stdout');
    expect(result.firstLine.length).toBeGreaterThan(0);
    expect(result.other).not.toContain('EPIPE');
    expect(result.other).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(141);
  }, 150_000);

  it('ends validate quietly with 141 when stderr, where the diagnostics go, is closed after the first line', async () => {
    const result = await readFirstLineThenClose(['validate', dir], 'stderr');
    expect(result.firstLine).toContain('SCH001');
    expect(result.other).not.toContain('EPIPE');
    expect(result.other).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(141);
  }, 150_000);

  it('writes all of a large output to a slow reader before exiting', async () => {
    // The summary of a large valid config: hundreds of writes, each waiting for the reader, and
    // the last ones still queued when the command is done.
    const big = writeProject({ 'main.hcl': hugeConfig(4 * 1024 * 1024) });
    const out = await readSlowly(['validate', big, '--offline']);
    expect(out.stdout.length).toBeGreaterThan(2_000_000);
    expect(out.stdout).toMatch(/config is valid\n$/);
    expect(out.code).toBe(0);
  }, 150_000);
});

/**
 * Runs the CLI with its stdout on a named pipe (a real pipe: `spawn` would give it a socket, which
 * an exiting process drains anyway) and reads it whole, but slowly, a few kilobytes at a time, so
 * the pipe stays nearly full to the end. The reads block this worker, not the CLI's process.
 */
async function readSlowly(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const fifoDir = mkdtempSync(join(tmpdir(), 'squadron-fifo-'));
  const fifo = join(fifoDir, 'out');
  execFileSync('mkfifo', [fifo]);
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeEnd = openSync(fifo, 'w');
  const env = { ...process.env, NO_COLOR: '1', SQUADRON_VAR_api_key: 'test-key' };
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', writeEnd, 'ignore'] });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
  closeSync(writeEnd);
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(4096);
  const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  for (;;) {
    let n: number;
    try {
      n = readSync(readEnd, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      pause(1);
      continue;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
    pause(0.5);
  }
  closeSync(readEnd);
  rmSync(fifoDir, { recursive: true, force: true });
  return { code: await exited, stdout: Buffer.concat(chunks).toString('utf8') };
}
