// The server's log: one JSON object a line when stderr is not a terminal (for journald, container
// logs), short human lines when it is. Callers pass facts, never a request's headers or body: a
// token or a webhook secret must never reach the log.

export type LogLevel = 'info' | 'warn' | 'error';

export interface Log {
  (level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
}

export function createLog(stream: NodeJS.WritableStream & { isTTY?: boolean }): Log {
  const json = !stream.isTTY;
  return (level, msg, fields = {}) => {
    if (json) {
      stream.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
      return;
    }
    const extra = Object.entries(fields)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    stream.write(`${level === 'info' ? '' : `${level}: `}${msg}${extra ? ` ${extra}` : ''}\n`);
  };
}

/** An error's message for the log (never its stack, never what it was given). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
