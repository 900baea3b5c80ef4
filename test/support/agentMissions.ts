// A project for the MCP server and A2A tests: missions whose direct task POSTs its note to a counting
// server (each POST is a side effect to count), one that waits for approval first, one whose model
// never answers (to cancel), and one not exposed. The fake model server plays the worker.

import type { FakeReply, FakeRequest } from './fakeModelServer.js';
import { ANTHROPIC_MODEL, LOCAL_HTTP, writeProject } from './e2eProject.js';
import { firstUserMessage, lastToolResult } from './turnScript.js';

const directTask = (name: string, extra = ''): string => `  task "${name}" {
    direct    = true
    objective = "Post this note: \${inputs.note}"
    tools     = [builtins.http.post]
    ${extra}
    output = {
      posted = bool("whether the note was posted", true)
      reply  = string("what the board answered")
    }
  }`;

const inputs = `  input "note" {
    type        = "string"
    description = "The note to post"
  }
  input "copies" {
    type        = "integer"
    description = "How many copies"
    default     = 1
  }`;

export function agentProject(modelBlock: string): string {
  return writeProject({
    'main.hcl': `${LOCAL_HTTP}${modelBlock}
mission "publish" {
  description = "Post a note to the board."
  commander { model = ${ANTHROPIC_MODEL} }
${inputs}
${directTask('post')}
}

mission "guarded" {
  description = "Post a note to the board once a person approves."
  commander { model = ${ANTHROPIC_MODEL} }
${inputs}
${directTask('post', 'approval  = [builtins.http.post]')}
}

mission "slow" {
  description = "Takes its time."
  commander { model = ${ANTHROPIC_MODEL} }
${inputs}
${directTask('wait')}
}

mission "internal" {
  expose = false
  commander { model = ${ANTHROPIC_MODEL} }
${inputs}
${directTask('post')}
}
`,
  });
}

/** The worker's side: POST the objective to `${board}/<task>`, then submit the output. The task `wait` never answers. */
export function boardWorker(board: string): (request: FakeRequest) => FakeReply {
  return (request) => {
    const task = /worker agent of task "(\w+)"/.exec(request.canonical.system)?.[1];
    if (task === undefined) return { status: 400, errorMessage: 'not a worker of this project' };
    if (task === 'wait') return { text: 'still thinking', delayMs: 600_000 };
    const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
    if (turn === 0) return { toolCalls: [{ name: 'builtins_http_post', input: { url: `${board}/${task}`, body: firstUserMessage(request), content_type: 'text' } }] };
    return {
      toolCalls: [
        { name: 'submit_output', input: { output: { posted: true, reply: lastToolResult(request).slice(0, 200) } } },
        { name: 'task_complete', input: { summary: 'posted' } },
      ],
    };
  };
}
