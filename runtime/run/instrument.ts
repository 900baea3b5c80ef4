// The hook an observer of a run (the OpenTelemetry export in telemetry/) is attached by: given the
// run's bus and store when its services open, it subscribes to the events and may answer the trace
// context an outgoing call carries. The runtime never loads the observer itself: the caller (api/)
// passes one only when telemetry is configured, so a run without it pays nothing.

import type { Mission, MissionGraph } from '../../config/graph.js';
import type { Redactor, Store } from '../../store/index.js';
import type { EventBus } from '../kernel/events.js';

export interface RunObserved {
  graph: MissionGraph;
  runId: string;
  mission: Mission;
  store: Store;
  bus: EventBus;
  redactor: Redactor;
}

export interface RunInstrument {
  /** What an outgoing MCP tool call carries in `params._meta` (the W3C `traceparent` of its span), by call id. */
  callContext(callId: string): Record<string, string> | undefined;
  /** Ends what this process recorded of the run and sends it; called when the run's services close. */
  close(): Promise<void>;
}

/** Attaches an observer to a run's services (once per process and run); undefined: it declined. */
export type Instrument = (run: RunObserved) => Promise<RunInstrument | undefined>;
