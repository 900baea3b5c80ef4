// Shows long text through the user's pager (`$PAGER`, default `less -R`) the way git does: only
// when stdout is a terminal and the text is taller than it. A pager that cannot start, or exits
// before reading everything (the user quit), is not an error; a missing pager prints directly.

import { spawn } from 'node:child_process';

export interface PageOptions {
  /** The `PAGER` setting: a shell command; empty or `cat` means no pager. */
  pager: string | undefined;
  env: NodeJS.ProcessEnv;
}

/** Writes `text` through the pager; resolves false when the pager could not be run (nothing shown). */
export function page(text: string, opts: PageOptions): Promise<boolean> {
  const command = opts.pager === undefined ? 'less -R' : opts.pager.trim();
  if (command === '' || command === 'cat') return Promise.resolve(false);
  return new Promise((resolve) => {
    // `LESS` as git sets it when unset: keep colours (R) and quit at once on a screenful (F).
    const env = { ...opts.env, LESS: opts.env['LESS'] ?? 'FRX' };
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env });
    // Ctrl-C belongs to the pager (less uses it to stop a search): we outlive it, as git does.
    const ignoreInterrupt = (): void => undefined;
    process.on('SIGINT', ignoreInterrupt);
    let settled = false;
    const done = (shown: boolean): void => {
      process.off('SIGINT', ignoreInterrupt);
      if (!settled) resolve(shown);
      settled = true;
    };
    child.on('error', () => done(false));
    // 127: the shell did not find the command; anything else is the pager's own business.
    child.on('close', (code) => done(code !== 127));
    child.stdin.on('error', () => undefined); // EPIPE when the user quits before the end
    child.stdin.end(text);
  });
}

/** Whether `text` is taller than a terminal of `rows` rows. */
export function needsPager(text: string, rows: number | undefined): boolean {
  if (rows === undefined || rows <= 0) return false;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines >= rows;
}
