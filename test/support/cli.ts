// Runs the built CLI (dist/cli/main.cjs) as a child process, the way a user does, and captures its
// output and exit code. End-to-end tests use this; they never import our modules directly.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const CLI = join(REPO_ROOT, 'dist', 'cli', 'main.cjs');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Called once the child exists (e.g. to kill it at a chosen moment). */
  onSpawn?: (child: ChildProcess) => void;
  timeoutMs?: number;
  /** Run as this user and group (the test runner must be root), e.g. to meet read-only files. */
  uid?: number;
  gid?: number;
  /** The umask the CLI starts with (set by a shell that then execs node). */
  umask?: number;
  /** Written to the CLI's standard input, then closed (default: no standard input). */
  stdin?: string;
}

export function runCli(args: readonly string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...opts.env };
    const command = opts.umask === undefined ? [process.execPath, CLI, ...args] : ['/bin/sh', '-c', `umask ${opts.umask.toString(8).padStart(4, '0')}; exec "$0" "$@"`, process.execPath, CLI, ...args];
    const ids = { ...(opts.uid === undefined ? {} : { uid: opts.uid }), ...(opts.gid === undefined ? {} : { gid: opts.gid }) };
    const child = spawn(command[0]!, command.slice(1), { cwd: opts.cwd ?? REPO_ROOT, env, stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], ...ids });
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`squadron ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 120_000);
    opts.onSpawn?.(child);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

export function tempDir(prefix = 'squadron-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
