// End-to-end: Go Squadron's memory slots through the CLI. A mission lists a shared memory, has its
// own memory and a scratchpad, and reads a packet: the worker writes with memory_write, a second run
// reads what the first one kept (the memories last, the scratchpad is the run's own), and a packet
// is read-only.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, removeProjects, toolNames, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';

vi.setConfig({ testTimeout: 180_000 });
afterAll(removeProjects);

function project(modelBlock: string): string {
  return writeProject({
    'main.hcl': `${modelBlock}
memory "notes" {
  description = "Notes every mission may keep"
}

packet "guide" {
  path        = "./guide"
  description = "The style guide"
}

mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  memories   = [memories.notes]
  packets    = [packets.guide]
  memory { description = "What this mission learnt" }
  scratchpad = true
  task "t" {
    direct    = true
    objective = "Work."
    tools     = [builtins.utils.current_time]
  }
}
`,
    'guide/style.md': 'Write short sentences.\n',
  });
}

const last = (request: FakeRequest): string => JSON.stringify(request.canonical.messages.at(-1) ?? '');

describe('memory slots (Go memories, scratchpad, packets)', () => {
  it('a run writes its memories and scratchpad; the next run reads the memories back; a packet is read-only', async () => {
    let run = 0;
    const seen: string[] = [];
    const server = await startFakeModelServer({
      respond: (request): FakeReply => {
        const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
        if (turn > 0) seen.push(`${run}:${turn}:${last(request)}`);
        if (run === 1) {
          if (turn === 0) {
            return {
              toolCalls: [
                { name: 'memory_read', input: { slot: 'packet.guide', path: 'style.md' } },
                { name: 'memory_write', input: { slot: 'notes', path: 'cities.md', content: 'Oslo is cold.' } },
                { name: 'memory_write', input: { slot: 'memory', path: 'learnt.md', content: 'run one' } },
                { name: 'memory_write', input: { slot: 'scratchpad', path: 'draft.md', content: 'scratch' } },
                { name: 'memory_write', input: { slot: 'packet.guide', path: 'style.md', content: 'overwritten' } },
              ],
            };
          }
          return { toolCalls: [{ name: 'task_complete', input: { summary: 'kept notes' } }] };
        }
        if (turn === 0) {
          return {
            toolCalls: [
              { name: 'memory_read', input: { slot: 'notes', path: 'cities.md' } },
              { name: 'memory_read', input: { slot: 'memory', path: 'learnt.md' } },
              { name: 'memory_list', input: { slot: 'scratchpad' } },
            ],
          };
        }
        return { toolCalls: [{ name: 'task_complete', input: { summary: 'read notes' } }] };
      },
    });
    try {
      const dir = project(fakeModelBlock(server));
      run = 1;
      const first = await runCli(['run', dir], { cwd: dir });
      expect(first.code, first.stderr).toBe(0);
      // The worker held the memory tools, the slots listed in their descriptions.
      const offered = server.requests[0]!;
      expect(toolNames(offered)).toEqual(expect.arrayContaining(['memory_list', 'memory_read', 'memory_write']));
      expect(JSON.stringify(offered.canonical.tools)).toContain('packet.guide (read-only): The style guide');
      // plan shows the tools the run sent, in the same order.
      const planned = await runCli(['plan', dir, '--json'], { cwd: dir });
      expect(planned.code, planned.stderr).toBe(0);
      const plan = JSON.parse(planned.stdout) as { tasks: { name: string; agents: { first_request_tools: string[] }[] }[] };
      expect(plan.tasks[0]!.agents[0]!.first_request_tools).toEqual(toolNames(offered));

      const firstResults = seen.find((s) => s.startsWith('1:1:'))!;
      expect(firstResults).toContain('Write short sentences.');
      expect(firstResults).toContain('is read-only');
      expect(readFileSync(join(dir, 'guide', 'style.md'), 'utf8')).toBe('Write short sentences.\n');
      expect(readFileSync(join(dir, '.squadron', 'memories', 'shared', 'notes', 'cities.md'), 'utf8')).toBe('Oslo is cold.');
      expect(readFileSync(join(dir, '.squadron', 'memories', 'mission', 'm', 'learnt.md'), 'utf8')).toBe('run one');
      const pads = readdirSync(join(dir, '.squadron', 'scratchpads', 'm'));
      expect(pads).toHaveLength(1);
      expect(pads[0]).toMatch(/^run_/);
      expect(existsSync(join(dir, '.squadron', 'scratchpads', 'm', pads[0]!, 'draft.md'))).toBe(true);

      run = 2;
      const second = await runCli(['run', dir], { cwd: dir });
      expect(second.code, second.stderr).toBe(0);
      const secondResults = seen.find((s) => s.startsWith('2:1:'))!;
      expect(secondResults).toContain('Oslo is cold.');
      expect(secondResults).toContain('run one');
      // The scratchpad is the new run's own: empty.
      expect(secondResults).not.toContain('draft.md');
    } finally {
      await server.close();
    }
  });
});
