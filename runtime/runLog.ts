// The structured log of one run: every event as a pino JSON line in `.squadron/logs/<run-id>.jsonl`,
// with secret values redacted on the way out (the same redactor the store uses): value by value
// before pino serialises a line, so a secret inside JSON text inside a field is caught too, and the
// finished line once more as plain text.

import { dirname } from 'node:path';
import pino, { type Logger } from 'pino';
import { makePrivateDirs, type Redactor } from '../store/index.js';
import type { McpLogLevel, RunEvent } from './events.js';

const PINO_LEVEL: Record<McpLogLevel, 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'fatal',
  alert: 'fatal',
  emergency: 'fatal',
};

export interface RunLog {
  path: string;
  logger: Logger;
  sink: (event: RunEvent) => void;
  close(): void;
}

export function openRunLog(path: string, runId: string, redactor: Redactor): RunLog {
  makePrivateDirs(dirname(path));
  // Synchronous writes: a handful of lines per model turn, and nothing is lost if the process is killed.
  const destination = pino.destination({ dest: path, sync: true, append: true, mode: 0o600 });
  const logger = pino(
    {
      base: { run: runId },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { log: (object) => redactor.redactValue(object) },
      hooks: { streamWrite: (line) => redactor.mask(line) },
    },
    destination,
  );
  return {
    path,
    logger,
    sink: (event) => {
      if (event.type === 'mcp.log') {
        // A server's own log line, at the server's level (pino's default level drops debug).
        logger[PINO_LEVEL[event.level]]({ event }, `mcp ${event.server}${event.logger ? ` (${event.logger})` : ''}`);
        return;
      }
      const level = event.type === 'task.failed' || event.type === 'warning' ? 'warn' : 'info';
      logger[level]({ event }, event.type);
    },
    close: () => {
      destination.flushSync();
      destination.end();
    },
  };
}
