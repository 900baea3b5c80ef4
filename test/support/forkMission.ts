// The mission the fork tests run: three direct tasks (prepare → draft → publish), each POSTing to a
// counting server (draft twice) before it finishes with a summary that repeats its objective marker.

import { ANTHROPIC_MODEL, fakeModelBlock, LOCAL_HTTP } from './e2eProject.js';
import type { FakeModelServer, FakeReply, FakeRequest } from './fakeModelServer.js';

/** prepare → draft → publish, each direct: one POST, then done (draft POSTs twice). */
/** With `approval`, every POST needs the operator's approval. */
export function forkMission(models: FakeModelServer, counterUrl: string, opts: { approval?: boolean } = {}): string {
  const approval = opts.approval ? '\n    approval  = [builtins.http.post]' : '';
  return `${LOCAL_HTTP}${fakeModelBlock(models)}
mission "m" {
  direct = true
  commander { model = ${ANTHROPIC_MODEL} }
  input "tag" {
    type    = "string"
    default = "one"
  }
  task "prepare" {
    objective = "OBJ-prepare-\${inputs.tag} at ${counterUrl}"
    tools     = [builtins.http.post]${approval}
  }
  task "draft" {
    depends_on = [tasks.prepare]
    objective  = "OBJ-draft-\${inputs.tag} at ${counterUrl}"
    tools      = [builtins.http.post]${approval}
  }
  task "publish" {
    depends_on = [tasks.draft]
    objective  = "OBJ-publish-\${inputs.tag} at ${counterUrl}"
    tools      = [builtins.http.post]${approval}
  }
}
`;
}

export function labelOf(request: FakeRequest): string {
  return /worker agent of task "([a-z]+)"/.exec(request.canonical.system)?.[1] ?? 'unknown';
}

/** The objective marker the request carries (`OBJ-draft-one`), which the task's summary repeats. */
export function objectiveOf(request: FakeRequest): string {
  return /OBJ-[a-z]+-[a-z0-9]+/.exec(JSON.stringify(request.canonical.messages[0]))?.[0] ?? 'none';
}

export function forkScript(counterUrl: string, hook?: (request: FakeRequest) => FakeReply | undefined): (request: FakeRequest) => FakeReply {
  return (request) => {
    const fromHook = hook?.(request);
    if (fromHook) return fromHook;
    const label = labelOf(request);
    const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
    const posts = label === 'draft' ? 2 : 1;
    if (turn < posts) return { toolCalls: [{ name: 'builtins_http_post', input: { url: `${counterUrl}/mark`, body: `${objectiveOf(request)}#${turn + 1}`, content_type: 'text' } }] };
    return { toolCalls: [{ name: 'task_complete', input: { summary: `done ${objectiveOf(request)}` } }] };
  };
}

