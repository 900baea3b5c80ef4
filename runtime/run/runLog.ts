// The structured log of one run: every event as a pino JSON line in `.squadron/logs/<run-id>.jsonl`,
// with secret values redacted on the way out (the same redactor the store uses): value by value
// before pino serialises a line, so a secret inside JSON text inside a field is caught too, and the
// finished line once more as plain text.

import { closeSync, openSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import pino, { type Logger } from 'pino';
import { makePrivateDirs, type Redactor } from '../../store/index.js';
import type { McpLogLevel, RunEvent } from '../kernel/events.js';

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
  const destination = new TurnBufferedFile(path);
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
    close: () => destination.close(),
  };
}

/**
 * The log file as pino's destination: the lines of one turn of the event loop are written together,
 * synchronously, when the turn ends (a 1,000-item fan-out logs ~9,000 lines; one write each was a
 * tenth of its CPU). A process killed mid-turn loses that turn's lines at most; the events table has
 * them.
 */
class TurnBufferedFile {
  private readonly fd: number;
  private lines: string[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  /** Closed, or a write failed (a full disk): the log stops, the run does not. */
  private stopped = false;

  constructor(path: string) {
    this.fd = openSync(path, 'a', 0o600);
  }

  write(line: string): boolean {
    if (this.stopped) return false;
    this.lines.push(line);
    this.scheduled ??= setImmediate(() => this.flush());
    return true;
  }

  private flush(): void {
    this.scheduled = undefined;
    if (this.lines.length === 0 || this.stopped) return;
    const text = this.lines.join('');
    this.lines = [];
    try {
      // Every byte or a stop (writeSync may take fewer bytes than given, as on a full disk).
      writeFileSync(this.fd, text);
    } catch {
      this.stopped = true;
    }
  }

  close(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.flush();
    this.stopped = true;
    closeSync(this.fd);
  }
}
