// What passes between a run and its operator: a request (an approval of one tool call, or a
// question) and the reply. The CLI's terminal prompt, and the approve/deny/answer commands, speak these.

import type { OperatorRequestKind } from '../../core/statuses.js';

/** A question as stored: `builtins.human.ask`'s input, or an MCP elicitation's form. */
export interface QuestionPayload {
  question: string;
  choices?: string[];
  multi_select?: boolean;
  /** An elicitation form's fields (name → JSON schema of a primitive), answered as an object. */
  fields?: Record<string, { type?: string; description?: string; enum?: unknown[]; title?: string }>;
  /** Fields that must be given. */
  required?: string[];
}

/** A question's answer: free text, one or more of its choices, or a form's fields. */
export interface OperatorAnswer {
  text?: string;
  choices?: string[];
  fields?: Record<string, unknown>;
}

export interface PromptRequest {
  id: string;
  kind: OperatorRequestKind;
  task: string;
  agent: string;
  /** The tool called (approval), or the tool that asks (`builtins.human.ask`, `mcp.<server>.<tool>`). */
  tool: string;
  /** Approval: the call's arguments. */
  input?: unknown;
  /** Approval: why the tool needs it. */
  via?: string;
  question?: QuestionPayload;
}

export type PromptReply =
  | { status: 'approved' }
  | { status: 'denied'; reason?: string }
  | { status: 'answered'; answer: OperatorAnswer }
  | { status: 'declined'; reason?: string };

/** Asks a person now (a terminal); undefined when nobody can answer here, and the request waits. */
export interface OperatorPrompt {
  ask(request: PromptRequest): Promise<PromptReply | undefined>;
}
