// `squadron serve` as a child process for end-to-end tests: started on a free port (it prints the
// address it bound), with helpers to call its API with a token, to read its JSON-lines log, and to
// wait for a log line or an exit; and what those tests share: a copy of the quickstart with blocks
// added to its mission, a token made with the CLI, a webhook signature.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CLI, REPO_ROOT, runCli, tempDir } from './cli.js';

/** A copy of the offline quickstart (its database left out) whose mission opens with `blocks` (a trigger, schedules, notifications). */
export function quickstartWith(blocks: string, prefix = 'squadron-serve-'): string {
  const dir = tempDir(prefix);
  cpSync(join(REPO_ROOT, 'examples', 'quickstart'), dir, { recursive: true, filter: (src) => !src.endsWith('/.squadron') });
  const hcl = join(dir, 'mission.hcl');
  writeFileSync(hcl, readFileSync(hcl, 'utf8').replace('mission "quickstart" {', `mission "quickstart" {\n${blocks}\n`));
  return dir;
}

/** A trigger block at `/webhooks/<path>` signed with `secret`. */
export const triggerBlock = (path: string, secret: string): string => `  trigger {\n    webhook_path = "${path}"\n    secret       = "${secret}"\n  }\n`;

/** `squadron token create <name> [flags]` in `dir`: the token, printed once. */
export async function createToken(dir: string, name = 'ci', ...flags: string[]): Promise<string> {
  const r = await runCli(['token', 'create', name, ...flags], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('shown only now');
  return r.stdout.trim();
}

/** POSTs to the server's `/webhooks/<path>` as a sender does: the JSON body as given, the headers added. */
export function webhookPoster(s: ServeProcess, path: string): (body: string, headers: Record<string, string>) => Promise<{ status: number; json: Record<string, unknown> }> {
  return async (body, headers) => {
    const res = await fetch(`${s.url}/webhooks/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

/** X-Squadron-Signature for `body` sent at `t` (unix seconds): HMAC-SHA256 of "<t>.<body>", as a trigger checks it. */
export function webhookSignature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Every JSON log line so far. */
  logs: Record<string, unknown>[];
  /** Resolves with the first log line (present or future) that `match` accepts. */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/** Kills (SIGKILL) every server of the list still running, and empties it: a test file's afterEach. */
export function killStillRunning(servers: ServeProcess[]): void {
  for (const s of servers.splice(0)) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
}

export function startServe(args: readonly string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args, '--port', '0'], {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const waiters: { match: (l: Record<string, unknown>) => boolean; done: (l: Record<string, unknown>) => void }[] = [];
  let stderr = '';
  let pending = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      logs.push(parsed);
      for (const w of [...waiters]) {
        if (w.match(parsed)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done(parsed);
        }
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start\n${stderr}`)), 60_000);
    void exited.then(() => reject(new Error(`serve exited before listening\n${stdout}\n${stderr}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      resolvePromise({
        child,
        url: m[1]!,
        logs,
        exited,
        stderr: () => stderr,
        waitForLog(match, timeoutMs = 60_000) {
          const seen = logs.find(match);
          if (seen) return Promise.resolve(seen);
          return new Promise((done, fail) => {
            const t = setTimeout(() => fail(new Error(`no such log line within ${timeoutMs} ms\n${stderr}`)), timeoutMs);
            waiters.push({ match, done: (l) => (clearTimeout(t), done(l)) });
          });
        },
      });
    });
  });
}

/** Reads server-sent events from `url` until `until` accepts one (or `timeoutMs`); returns them all. */
export async function readEvents(url: string, token: string, opts: { lastEventId?: string; until: (e: { id: string; event: string; data: Record<string, unknown> }) => boolean; timeoutMs?: number }): Promise<{ id: string; event: string; data: Record<string, unknown> }[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 90_000);
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}) }, signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`events: HTTP ${res.status}`);
  const out: { id: string; event: string; data: Record<string, unknown> }[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':') && l.includes(': ')).map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
        if (fields['data'] === undefined) continue;
        const e = { id: fields['id'] ?? '', event: fields['event'] ?? '', data: JSON.parse(fields['data']) as Record<string, unknown> };
        out.push(e);
        if (opts.until(e)) return out;
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return out;
}
