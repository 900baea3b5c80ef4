// The telemetry room's one door: an observer of a run's events that exports them as OpenTelemetry
// spans and metrics (telemetry/runSpans.ts) to the configured OTLP endpoint. Loaded (with the SDK) only
// when telemetry/settings.ts finds telemetry on, by api/ through a dynamic import.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../core/assets.js';
import type { Instrument, RunInstrument, RunObserved } from '../runtime/run/instrument.js';
import { contentReader } from './content.js';
import { openExport } from './export.js';
import { RunSpans } from './runSpans.js';
import type { TelemetrySettings } from './settings.js';
import { formatTraceContext, newTraceContext, parseTraceContext } from './traceContext.js';

export { SEMCONV_GENAI_VERSION } from './attributes.js';

/** Attaches one SDK (tracer and meter providers) per run this process works on; each is shut down, so flushed, when the run's services close. */
export function telemetryInstrument(settings: TelemetrySettings): Instrument {
  return async (run: RunObserved): Promise<RunInstrument | undefined> => {
    // Stored once for the run; every process reads the same one back.
    const stored = parseTraceContext(await run.store.runs.claimTraceContext(run.runId, formatTraceContext(newTraceContext(Date.now())))) ?? newTraceContext(Date.now());
    const out = openExport(settings, packageVersion());
    const content = settings.captureContent ? contentReader(run.store, run.redactor) : undefined;
    const spans = new RunSpans(out, run.runId, run.graph, run.mission, stored, run.redactor, content);
    run.bus.subscribe('telemetry', spans.sink);
    let closed: Promise<void> | undefined;
    return {
      callContext: (callId) => spans.callContext(callId),
      close: () =>
        (closed ??= (async () => {
          await spans.settled();
          spans.endOpen();
          // Export failures (no collector listening) are the SDK's to report; the run is not affected.
          await out.shutdown().catch(() => undefined);
        })()),
    };
  };
}

let version: string | undefined;
function packageVersion(): string {
  try {
    version ??= (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    version = 'unknown';
  }
  return version;
}
