// `squadron worker` processes for end-to-end tests on PostgreSQL: spawn one on the built CLI with its
// output captured, wait for a condition read from the database or the output (generously: the
// machine may be loaded), and query the database directly.

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { CLI } from './cli.js';

export interface Worker {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

/** Node options that give every AbortSignal in the process a limit of 10 listeners (a leak then warns). */
export const LISTENER_LIMIT_OPTIONS = `--require ${join(import.meta.dirname, 'listenerLimit.cjs')}`;

export function startWorker(dir: string, url: string, concurrency: number, env: Record<string, string> = {}): Worker {
  const child = spawn(process.execPath, [CLI, 'worker', '--db', url, '--concurrency', String(concurrency)], { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

/** Polls `probe` until it gives a value; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 400_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function query<T extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
