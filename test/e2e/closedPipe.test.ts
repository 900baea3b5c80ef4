// A reader that stops early (`squadron validate --json | head -1`) closes the pipe the CLI writes
// to. The CLI must then end quietly with 141 (128 + SIGPIPE), never with an EPIPE stack trace, on
// stdout and on stderr alike.

import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { removeProjects, writeProject } from '../support/e2eProject.js';

afterAll(removeProjects);

/** Thousands of errors: far more output than a pipe buffers, so the CLI is still writing when the reader leaves. */
function bigInvalidConfig(): string {
  let hcl = '';
  for (let i = 0; i < 5000; i++) hcl += `variable "v${i}" {\n  bogus = "x"\n}\n`;
  return hcl;
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
  const dir = writeProject({ 'mission.hcl': bigInvalidConfig() });

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
});
