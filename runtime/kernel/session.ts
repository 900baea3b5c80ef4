// The session vocabulary every room below the agents speaks: a conversation's messages, the model a
// session talks to, and the two ways a run stops mid-session (interrupted, parked). It sits low so that
// budgets, context management and the operator can name a session's parts without importing the
// session loop that uses them.

import type { Pricing } from '../../config/graph.js';
import type { Part } from '../providers/types.js';

/** Why a user-role message exists; lets resume tell corrections and instructions apart. */
export type MessageKind = 'instruction' | 'tool_results' | 'correction' | 'truncation';

export interface SessionMessage {
  role: 'user' | 'assistant';
  parts: Part[];
  kind?: MessageKind;
  /** For instructions sent by `call_agent`/`ask_agent`: the commander's tool call id. */
  callId?: string;
}

export interface SessionModel {
  /** Wire id. */
  apiModel: string;
  /** `block.key`, for display. */
  label: string;
  pricing?: Pricing;
  maxOutputTokens: number;
  /** Input tokens one request may hold, and where the figure comes from. */
  contextWindow: number;
  contextWindowVia: 'catalog' | 'model block' | 'default';
  reasoning?: 'low' | 'medium' | 'high';
  reasoningForm?: 'budget' | 'adaptive';
}

/** Thrown when the run is being stopped (SIGINT, a sibling task failed): state stays resumable. */
export class RunInterrupted extends Error {
  constructor(message = 'run interrupted') {
    super(message);
    this.name = 'RunInterrupted';
  }
}

/**
 * Thrown when a call waits for the operator (an approval, a question) and nobody can answer now: the
 * session stops where it is, as an interruption would leave it, and continues on resume.
 */
export class RunParked extends RunInterrupted {
  constructor(message = 'waiting for the operator') {
    super(message);
    this.name = 'RunParked';
  }
}
