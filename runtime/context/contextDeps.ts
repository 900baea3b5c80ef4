// What context management reads of the session it works for: the store and bus of the run, the
// session's gated client and model (the compaction summary is a model call), and who it is. The
// session's own dependencies (SessionDeps) hold all of these.

import type { Store } from '../../store/index.js';
import type { EventBus } from '../kernel/events.js';
import type { SessionModel } from '../kernel/session.js';
import type { GatedClient } from '../model/modelCall.js';
import type { Toolbox } from '../tools/toolbox.js';

export interface ContextDeps {
  store: Store;
  bus: EventBus;
  client: GatedClient;
  model: SessionModel;
  runId: string;
  task: string;
  agent: string;
  sessionId: string;
  signal: AbortSignal;
  /** A commander's session: its compacted head carries the commander's state. */
  requireToolCall: boolean;
  /** `tool_response.max_tokens` of the session (the last resort's read tools). */
  resultMaxTokens: number;
  toolbox: Toolbox;
}
