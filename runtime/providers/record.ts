// A ModelClient wrapper that forwards to a real client and appends each completed turn to a
// cassette (one JSON line, fsynced). Secrets are redacted value by value before the line is
// serialised, so a secret is caught however deeply the conversation nests or escapes it.

import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { serializeEntry, type CassetteRedactor } from './cassette.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResponse } from './types.js';

export interface RecordingOptions {
  /** The cassette file; created (with its folder) if missing, appended to otherwise. */
  cassette: string;
  /** Applied to every string of the entry (keys too) before it is serialised. */
  redactor?: Pick<CassetteRedactor, 'redactValue'>;
}

export function createRecordingClient(inner: ModelClient, options: RecordingOptions): ModelClient {
  async function complete(request: ModelRequest, call?: CallOptions): Promise<ModelResponse> {
    const response = await inner.complete(request, call);
    appendLine(options.cassette, serializeEntry(request.trace, request, response, options.redactor));
    return response;
  }
  return { provider: inner.provider, complete };
}

/**
 * Synchronous so that concurrent turns never interleave inside a line. The whole line or nothing: a
 * write cut short (a full disk) is undone, so the cassette never ends in half a line.
 */
function appendLine(file: string, line: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'a');
  try {
    const size = fstatSync(fd).size;
    try {
      // writeFileSync on a descriptor writes until every byte is taken (writeSync may take fewer).
      writeFileSync(fd, `${line}\n`);
      fsyncSync(fd);
    } catch (error) {
      ftruncateSync(fd, size);
      throw error;
    }
  } finally {
    closeSync(fd);
  }
}
