// `squadron chat` through the door: the agents of a config one can chat with, and a chat opened (new,
// or a stored one continued) with the same environment a run gets: hooks, operator prompt, telemetry.
// The runtime's refusals come out as SquadronError with the CLI's codes.

import { databasePath, workspacePath } from '../config/projectLayout.js';
import type { OperatorPrompt } from '../runtime/operator/types.js';
import type { RunEvent } from '../runtime/kernel/events.js';
import type { Chat, ChatLine, ChatReply, ChatTurnHooks } from '../runtime/run/chat.js';
import { SquadronError } from './errors.js';
import type { LoadedProject, ProjectOptions } from './project.js';
import { databaseLocation, runEnvironment } from './runs.js';

export type { Chat, ChatLine, ChatReply, ChatTurnHooks } from '../runtime/run/chat.js';
export { CHAT_TASK, chatAgentOf } from '../core/chatRuns.js';

/** An agent one can chat with, as a picker lists it. */
export interface ChatAgentChoice {
  name: string;
  /** `block.key` of its model. */
  model: string;
  /** The mission it is declared in, when it is not a top-level agent. */
  mission?: string;
}

export async function chatAgentChoices(project: LoadedProject): Promise<ChatAgentChoice[]> {
  const { chatAgents } = await import('../runtime/run/chat.js');
  return chatAgents(project.graph).map(({ spec, mission }) => ({ name: spec.name, model: `${spec.model.block}.${spec.model.key}`, ...(mission ? { mission: mission.name } : {}) }));
}

export interface ChatRequest extends Pick<ProjectOptions, 'env'> {
  config: LoadedProject;
  /** The agent (required for a new chat; for a stored one it must be the chat's). */
  agent?: string;
  /** Continue this stored chat (a run id, `run_…`). */
  chatId?: string;
  /** The database (default: the project's .squadron/squadron.db). */
  db?: string;
  /** The folder the file tools work in (default: .squadron/workspaces/<chat-id>). */
  workspace?: string;
  /** Asks a person for approvals and questions; without it a call that needs one ends the reply as `waiting`. */
  operatorPrompt?: OperatorPrompt;
  /** Every event of the chat as it happens (tool calls, model turns). */
  onEvent?: (event: RunEvent) => void;
}

/** Opens the chat: the caller sends messages with `send` and must `close` it. */
export async function openChat(req: ChatRequest): Promise<Chat> {
  const { Chat, ChatNotFound, UnknownChatAgent } = await import('../runtime/run/chat.js');
  const { RunBusy, RunRefused } = await import('../runtime/run/run.js');
  const root = req.config.graph.projectRoot;
  const db = databaseLocation(req.db ?? databasePath(root));
  const env = await runEnvironment(req.config, db, {
    ...(req.env ? { env: req.env } : {}),
    ...(req.operatorPrompt ? { operatorPrompt: req.operatorPrompt } : {}),
    ...(req.onEvent ? { onEvent: req.onEvent } : {}),
  });
  try {
    return await Chat.open(env, {
      ...(req.agent !== undefined ? { agent: req.agent } : {}),
      ...(req.chatId !== undefined ? { chatId: req.chatId } : {}),
      workspaceFor: (id) => req.workspace ?? workspacePath(root, id),
    });
  } catch (error) {
    if (error instanceof UnknownChatAgent || error instanceof ChatNotFound) throw new SquadronError('not_found', error.message);
    if (error instanceof RunBusy) throw new SquadronError('run_busy', error.message);
    if (error instanceof RunRefused) throw new SquadronError(error.kind === 'usage' ? 'usage' : 'run_refused', error.message);
    throw error;
  }
}
