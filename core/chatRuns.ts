// How a chat (`squadron chat`) is stored: as a run of its own whose mission is `chat:<agent>`, with
// one task, `chat`, holding the agent's one session. An HCL name cannot contain `:`, so no mission of
// a config can be mistaken for a chat, and a run's mission column alone says that it is one (resume,
// the server's crash recovery and the run lists read it here).

/** The task (and session label) a chat's conversation is stored under. */
export const CHAT_TASK = 'chat';

const PREFIX = 'chat:';

/** The mission name a chat with `agent` is stored under. */
export function chatMissionName(agent: string): string {
  return `${PREFIX}${agent}`;
}

/** The agent of a chat's run, or undefined when the run is a mission's. */
export function chatAgentOf(mission: string): string | undefined {
  return mission.startsWith(PREFIX) ? mission.slice(PREFIX.length) : undefined;
}
