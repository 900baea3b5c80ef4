// What a run waits for, asked of the MCP client as an elicitation (form mode): an approval as a yes/no
// with a reason, a question as its text (or one of its choices). Accepted answers become the
// operator's decisions; a cancelled elicitation leaves the request pending for the CLI or console.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Ask } from './followRun.js';

export function elicitationAsk(server: Server, runId: string): Ask | undefined {
  if (!server.getClientCapabilities()?.elicitation) return undefined;
  return async (request) => {
    const id = String(request['id']);
    if (request['kind'] === 'approval') {
      const result = await server.elicitInput({
        mode: 'form',
        message: `Run ${runId} (task ${String(request['task'])}) asks to call ${String(request['tool'])} with ${JSON.stringify(request['input'])}. Approve?`,
        requestedSchema: {
          type: 'object',
          properties: {
            approve: { type: 'boolean', title: 'Approve', description: 'true runs the call; false denies it' },
            reason: { type: 'string', title: 'Reason', description: 'Why (told to the agent when denied)' },
          },
          required: ['approve'],
        },
      });
      if (result.action === 'cancel') return undefined;
      const reason = typeof result.content?.['reason'] === 'string' && result.content['reason'] !== '' ? result.content['reason'] : undefined;
      if (result.action === 'accept' && result.content?.['approve'] === true) return { kind: 'approve', ids: [id], all: false, ...(reason ? { reason } : {}) };
      return { kind: 'deny', id, reason: reason ?? 'denied by the MCP client' };
    }
    const question = (request['question'] ?? {}) as { question?: string; choices?: string[]; multi_select?: boolean };
    const choices = Array.isArray(question.choices) && question.choices.length > 0 && !question.multi_select ? question.choices : undefined;
    const result = await server.elicitInput({
      mode: 'form',
      message: `Run ${runId} (task ${String(request['task'])}) asks: ${question.question ?? ''}`,
      requestedSchema: {
        type: 'object',
        properties: { answer: choices ? { type: 'string', title: 'Answer', enum: choices } : { type: 'string', title: 'Answer' } },
        required: ['answer'],
      },
    });
    if (result.action === 'cancel') return undefined;
    if (result.action === 'decline') return { kind: 'decline', id, reason: 'declined by the MCP client' };
    const answer = String(result.content?.['answer'] ?? '');
    return { kind: 'answer', id, answer: choices ? { choices: [answer] } : { text: answer } };
  };
}
