// A local attacker for the file-tool race test: a python3 process that swaps two names with
// renameat2(RENAME_EXCHANGE) in a tight loop (neither Node nor coreutils' mv offers that call). It
// prints "ready" once looping and, when stopped with SIGTERM, the number of swaps it made.

import { spawn, type ChildProcess } from 'node:child_process';

const SCRIPT = `
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
AT_FDCWD, RENAME_EXCHANGE = -100, 2
a, b, limit = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2]), time.monotonic() + float(sys.argv[3])
swaps = 0
def stop(*_):
    print(swaps, flush=True)
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
    sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
swaps = 1
print("ready", flush=True)
while True:
    for _ in range(1000):
        libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
        swaps += 1
    if time.monotonic() > limit:
        stop()
`;

export interface RenameExchanger {
  /** Stops the loop and returns the number of swaps made. */
  stop(): Promise<number>;
}

/** Starts swapping `a` and `b`; resolves once the loop runs. It stops by itself after `maxSeconds`. */
export function startRenameExchanger(a: string, b: string, maxSeconds: number): Promise<RenameExchanger> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn('python3', ['-c', SCRIPT, a, b, String(maxSeconds)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const exited = new Promise<number>((done) => child.on('close', () => done(Number.parseInt(out.trim().split('\n').pop() ?? '', 10))));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.startsWith('ready\n')) {
        out = out.slice('ready\n'.length);
        resolve({
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`the rename exchanger exited (${code}) before it was ready: ${err}`)));
  });
}
