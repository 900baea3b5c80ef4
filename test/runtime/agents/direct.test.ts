// The direct worker's contract (runtime/agents/direct.ts): its finishing tools in the commander's
// order, present only when the task needs them, and its prompt (prompts/worker.md) with the
// upstream results, output and routing rules in place of the objective and the commander.

import { describe, expect, test } from 'vitest';
import type { TaskSpec } from '../../../config/graph.js';
import { CommanderState } from '../../../runtime/kernel/commanderState.js';
import { directContract, directFinishingTools } from '../../../runtime/agents/direct.js';
import { renderPrompt } from '../../../core/promptTemplates.js';

function task(extra: Partial<TaskSpec> = {}): TaskSpec {
  return { name: 't', mission: 'm', dependsOn: [], agents: [], agentsVia: 'none', router: [], sendTo: [], direct: true, ...extra } as unknown as TaskSpec;
}

const names = (t: TaskSpec, upstream: { name: string; summary: string }[] = []): string[] =>
  directFinishingTools(t, new CommanderState(), { store: undefined as never, runId: 'run_x', upstream }).map((tool) => tool.definition.name);

describe('direct finishing tools', () => {
  test('task_complete alone for a task with nothing to submit, no route and no upstream', () => {
    expect(names(task())).toEqual(['task_complete']);
  });

  test('query_task_output first with upstream results, then submit_output with an output schema, then task_complete', () => {
    const output = [{ name: 'priority', type: 'string' as const, description: 'p', required: true }];
    expect(names(task({ output }), [{ name: 'up', summary: 'done' }])).toEqual(['query_task_output', 'submit_output', 'task_complete']);
  });

  test("task_complete offers the router's targets and none as its route", () => {
    const [complete] = directFinishingTools(task({ router: [{ target: 'next', condition: 'if so' }] }), new CommanderState(), { store: undefined as never, runId: 'run_x', upstream: [] });
    expect(JSON.stringify(complete!.definition.inputSchema)).toContain('"enum":["next","none"]');
  });
});

describe('the direct worker prompt', () => {
  const base = { task: 't', mission: 'm', objective: 'THE OBJECTIVE' };

  test('says the worker finishes the task itself, lists upstream results and rules, and leaves the objective to the first message', () => {
    const text = renderPrompt('worker', {
      ...base,
      objective: undefined,
      direct: directContract(task({ output: [], router: [{ target: 'next', condition: 'the case is urgent' }] }), [{ name: 'up', summary: 'Up said hello.', output: { n: 1 } }]),
    });
    expect(text).toContain('You carry out this task yourself, with your tools. The user message holds its objective.');
    expect(text).toContain('### up\nUp said hello.\nOutput: {"n":1}');
    expect(text).toContain('call `submit_output`');
    expect(text).toContain('  - `next`: the case is urgent\n  - `none`: none of the above applies.');
    expect(text).toContain('- Finish with `task_complete {summary}`');
    expect(text).not.toContain('commander');
    expect(text).not.toContain('THE OBJECTIVE');
  });

  test('without direct, the worker prompt is the commander-led one, with the objective', () => {
    const text = renderPrompt('worker', base);
    expect(text).toContain("The task's objective:\nTHE OBJECTIVE\n\nA commander coordinates this task.");
    expect(text).toContain('- Keep replies focused on the instruction you were given.\n');
    expect(text).not.toContain('task_complete');
  });
});
