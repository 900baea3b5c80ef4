// A ModelClient wrapper that forwards to a real client and appends each completed turn to a
// cassette (one JSON line, fsynced), after passing the whole serialized line through `redact` so
// secrets never reach the file.

import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { serializeEntry } from './cassette.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResponse } from './types.js';

export interface RecordingOptions {
  /** The cassette file; created (with its folder) if missing, appended to otherwise. */
  cassette: string;
  /** Applied to each whole serialized line; must keep it valid JSON (e.g. replace a key by `[REDACTED]`). */
  redact: (text: string) => string;
}

export function createRecordingClient(inner: ModelClient, options: RecordingOptions): ModelClient {
  async function complete(request: ModelRequest, call?: CallOptions): Promise<ModelResponse> {
    const response = await inner.complete(request, call);
    appendLine(options.cassette, redactLine(serializeEntry(request.trace, request, response), options.redact));
    return response;
  }
  return { provider: inner.provider, complete };
}

function redactLine(line: string, redact: (text: string) => string): string {
  const redacted = redact(line);
  let parsed: unknown;
  try {
    parsed = JSON.parse(redacted);
  } catch {
    // A bug in the redactor, not a user error: the line must stay replayable.
    throw new Error('record: the redaction function turned a cassette line into invalid JSON');
  }
  // A line break the redactor added between tokens would split the entry over two lines.
  return redacted.includes('\n') ? JSON.stringify(parsed) : redacted;
}

/** Synchronous so that concurrent turns never interleave inside a line. */
function appendLine(file: string, line: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
