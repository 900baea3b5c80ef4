// Runs the built CLI under a pseudo-terminal (python3's pty module), so the CLI sees a terminal on
// stdin, stdout and stderr as a person's shell gives it. The test reads what the terminal shows and
// types answers when a prompt appears (waiting for the text, never for a time).

import { spawn } from 'node:child_process';
import { CLI } from './cli.js';

const PTY = 'import os, pty, sys\nstatus = pty.spawn(sys.argv[1:])\nsys.exit(os.waitstatus_to_exitcode(status))';

/**
 * The same with a window size: the child's terminal has SQ_PTY_COLUMNS columns before the CLI
 * starts, and a line `\0resize N` on stdin changes it (the CLI gets SIGWINCH) instead of being typed.
 */
const SIZED_PTY = `import os, pty, sys, fcntl, termios, struct, select
def size(fd, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 24, cols, 0, 0))
pid, fd = pty.fork()
if pid == 0:
    size(0, int(os.environ['SQ_PTY_COLUMNS']))
    os.execv(sys.argv[1], sys.argv[1:])
pending = b''
watch = [fd, 0]
while True:
    ready, _, _ = select.select(watch, [], [])
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b''
        if not data:
            break
        os.write(1, data)
    if 0 in ready:
        data = os.read(0, 65536)
        if not data:
            watch = [fd]
        pending += data
        while b'\\n' in pending:
            line, pending = pending.split(b'\\n', 1)
            if line.startswith(b'\\0resize '):
                size(fd, int(line[8:]))
            else:
                os.write(fd, line + b'\\n')
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`;

export interface PtySession {
  /** Everything the terminal showed so far (stdout and stderr together, as on a screen). */
  readonly screen: () => string;
  /** Resolves once the screen shows `text` after what was already seen (`from`, an index into screen()). */
  waitFor(text: string, from?: number): Promise<number>;
  type(line: string): void;
  /** Sets the terminal's width (a session started with `columns` only). */
  resize(columns: number): void;
  /** The CLI's exit code. */
  exited: Promise<number | null>;
}

export function spawnCliInPty(args: readonly string[], opts: { cwd: string; env?: Record<string, string>; timeoutMs?: number; columns?: number }): PtySession {
  const sized = opts.columns === undefined ? {} : { SQ_PTY_COLUMNS: String(opts.columns) };
  const child = spawn('python3', ['-c', opts.columns === undefined ? PTY : SIZED_PTY, process.execPath, CLI, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, NO_COLOR: '1', TERM: 'dumb', ...sized, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const waiters: { text: string; from: number; resolve: (at: number) => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      const at = screen.indexOf(w.text, w.from);
      if (at >= 0) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(at + w.text.length);
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    screen += d;
    check();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (screen += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      for (const w of waiters.splice(0)) w.resolve(-1);
      resolve(code);
    }),
  );
  return {
    screen: () => screen,
    waitFor: (text, from = 0) =>
      new Promise((resolve, reject) => {
        waiters.push({ text, from, resolve: (at) => (at < 0 ? reject(new Error(`the CLI exited before showing ${JSON.stringify(text)}; screen:\n${screen}`)) : resolve(at)) });
        check();
      }),
    type: (line) => child.stdin.write(`${line}\n`),
    resize: (columns) => child.stdin.write(`\0resize ${columns}\n`),
    exited,
  };
}
