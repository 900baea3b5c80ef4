// The lines a chat reads: the person's messages, and their answers to approvals and questions, from
// one reader over stdin. On a terminal it shows a prompt and line editing; piped, each line is one
// message and the end of input ends the chat. Lines that arrive while the agent replies wait their turn.

import { createInterface } from 'node:readline';
import type { CliIo } from './io.js';

export interface ChatInput {
  /** Whether a person types at a terminal (stdin and stderr both one). */
  readonly interactive: boolean;
  /** The next line, or undefined at the end of input (Ctrl-D, EOF) or when `signal` aborts the wait. `query` is shown on a terminal. */
  next(query: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Ctrl-C (SIGINT) and SIGTERM while the chat is open. */
  onInterrupt(handler: (signal: 'SIGINT' | 'SIGTERM') => void): void;
  /** Ends the input: pending and later reads return undefined. */
  close(): void;
}

export function chatInput(io: CliIo, input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): ChatInput {
  const interactive = Boolean(input.isTTY) && io.stderrIsTTY;
  const rl = createInterface({ input, ...(interactive ? { output: io.stderr, terminal: true } : { terminal: false }) });
  const lines: string[] = [];
  let ended = false;
  let waiter: ((line: string | undefined) => void) | undefined;
  const deliver = (line: string | undefined): void => {
    const wake = waiter;
    waiter = undefined;
    wake?.(line);
  };
  rl.on('line', (line) => (waiter ? deliver(line) : lines.push(line)));
  rl.on('close', () => {
    ended = true;
    deliver(undefined);
  });
  let interrupt: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
  const onSigint = (): void => interrupt?.('SIGINT');
  const onSigterm = (): void => interrupt?.('SIGTERM');
  // On a terminal readline reads Ctrl-C itself; piped, it comes as a signal.
  rl.on('SIGINT', onSigint);
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  return {
    interactive,
    next(query, signal) {
      if (lines.length > 0) return Promise.resolve(lines.shift());
      if (ended || signal?.aborted) return Promise.resolve(undefined);
      if (interactive) {
        rl.setPrompt(query);
        rl.prompt();
      }
      return new Promise((resolve) => {
        waiter = resolve;
        signal?.addEventListener('abort', () => waiter === resolve && deliver(undefined), { once: true });
      });
    },
    onInterrupt(handler) {
      interrupt = handler;
    },
    close() {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      lines.length = 0;
      rl.close();
    },
  };
}
