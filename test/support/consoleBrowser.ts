// The web console under test: `squadron ui` as a child process (its address and one-time login URL
// read from its output), and the Chromium that drives it, found by the project's own script
// (scripts/install-browser.sh --check). No browser is a failure with one clear message, never a skip.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CLI, REPO_ROOT } from './cli.js';

export function browserPath(): string {
  try {
    return execFileSync(join(REPO_ROOT, 'scripts', 'install-browser.sh'), ['--check'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    throw new Error('no Chromium for the console tests: run scripts/install-browser.sh (README set-up), or set SQUADRON_BROWSER to a Chromium binary');
  }
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: browserPath(), args: ['--no-sandbox'] });
}

export interface UiProcess {
  child: ChildProcess;
  url: string;
  loginUrl: string;
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

export function startUi(args: readonly string[], opts: { cwd: string; env?: Record<string, string> }): Promise<UiProcess> {
  const child = spawn(process.execPath, [CLI, 'ui', ...args, '--port', '0'], { cwd: opts.cwd, env: { ...process.env, NO_COLOR: '1', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`squadron ui did not start\n${stdout}\n${stderr}`)), 60_000);
    void exited.then(() => reject(new Error(`squadron ui exited before listening\n${stdout}\n${stderr}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      const loginUrl = /(http:\/\/\S+\/login\?token=\S+)/.exec(stdout)?.[1];
      if (!url || !loginUrl) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        loginUrl,
        stdout: () => stdout,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
