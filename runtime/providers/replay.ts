// A ModelClient that plays a recorded cassette back. Entries are found by trace (task, agent,
// turn), not by position, because parallel tasks interleave; several entries for one trace are
// served in file order. When an entry holds the request, the live request must match it as
// replayMatch.ts defines (everything but tool results), or the call fails with one line naming why.
// A replayed turn is marked so that it costs nothing: no model was called.

import { CassetteFormatError, canonicalRequest, readCassette, traceLabel, type CassetteEntry, type CassetteRedactor } from './cassette.js';
import { matchedRequest, mismatchCause } from './replayMatch.js';
import { ModelCallError, type CallOptions, type ModelClient, type ModelRequest, type ModelResponse } from './types.js';

export interface ReplayClientOptions {
  /** Path of the JSONL cassette; read on the first call. */
  cassette: string;
  /**
   * The run's secrets: the live request is redacted before it is compared with the recorded (redacted)
   * one, and placeholders in recorded responses get the current secret values back.
   */
  redactor?: CassetteRedactor;
}

export function createReplayClient(options: ReplayClientOptions): ModelClient {
  const file = options.cassette;
  const redactor = options.redactor;
  let queues: Map<string, CassetteEntry[]> | undefined;
  const served = new Map<string, number>();

  function load(): Map<string, CassetteEntry[]> {
    if (queues) return queues;
    let entries: CassetteEntry[];
    try {
      entries = readCassette(file);
    } catch (error) {
      if (error instanceof CassetteFormatError) throw replayError(`replay: ${error.message}`);
      throw error;
    }
    queues = new Map();
    for (const entry of entries) {
      const key = traceKey(entry.trace);
      queues.set(key, [...(queues.get(key) ?? []), entry]);
    }
    return queues;
  }

  async function complete(request: ModelRequest, call: CallOptions = {}): Promise<ModelResponse> {
    if (call.signal?.aborted) {
      throw new ModelCallError('replay: request aborted', undefined, false, { kind: 'aborted', attempts: 0 });
    }
    const key = traceKey(request.trace);
    const label = traceLabel(request.trace);
    const candidates = load().get(key) ?? [];
    const playedBefore = served.get(key) ?? 0;
    const entry = candidates[playedBefore];
    if (!entry) {
      throw replayError(
        playedBefore === 0
          ? `replay: no cassette entry for ${label} in ${file}`
          : `replay: no further cassette entry for ${label} in ${file} (${playedBefore} already played)`,
      );
    }
    if (entry.request) {
      const live = matchedRequest(canonicalRequest(request));
      const cause = mismatchCause(matchedRequest(entry.request), redactor ? redactor.redactValue(live) : live, request.trace);
      if (cause) throw replayError(`replay: the cassette has no answer for ${label}: ${cause} (${file}:${entry.line})`);
    }
    served.set(key, playedBefore + 1);
    const recorded = structuredClone(entry.response);
    const response: ModelResponse = { ...(redactor ? redactor.restoreValue(recorded) : recorded), replayed: true };
    const text = response.message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    if (text !== '') call.onTextDelta?.(text);
    return response;
  }

  return { provider: 'replay', complete };
}

function traceKey(trace: { task: string; agent: string; turn: number }): string {
  return JSON.stringify([trace.task, trace.agent, trace.turn]);
}

function replayError(message: string): ModelCallError {
  return new ModelCallError(message, undefined, false, { kind: 'replay', attempts: 1 });
}
