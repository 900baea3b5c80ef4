// `squadron logs <run> [-f]` and `inspect --follow`: a run's stored events, and, while it runs in
// another process, its new events as they come until it ends.

import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { type FakeReply, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { taskComplete, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

function mission(serverBlock: string): Record<string, string> {
  return {
    'main.hcl': `${serverBlock}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "first" {
    objective = "Start."
    tools     = [builtins.utils.current_time]
  }
  task "second" {
    objective  = "Go on."
    depends_on = [tasks.first]
    tools      = [builtins.utils.current_time]
  }
}
`,
  };
}

describe('squadron logs and inspect --follow', () => {
  it('logs -f and inspect --follow print the events of a run in another process as they come, and end with it', async () => {
    let arrived!: () => void;
    const heldArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const turns = turnScript({
      [commanderOf('first')]: [taskComplete('first done')],
      [commanderOf('second')]: [taskComplete('second done')],
    });
    // The held task's reply waits for the test: the fake server awaits what respond returns.
    const respond = async (req: FakeRequest): Promise<FakeReply> => {
      if (req.canonical.system.includes(commanderOf('second'))) {
        arrived();
        await held;
      }
      return turns.respond(req);
    };
    await withFakeModelServer(respond, async (server) => {
      const dir = writeProject(mission(fakeModelBlock(server)));
      const running = runCli(['run', dir], { cwd: dir });
      await heldArrived;
      const listed = JSON.parse((await runCli(['runs', '--json'], { cwd: dir })).stdout) as { runs: { id: string; status: string }[] };
      const runId = listed.runs[0]!.id;
      expect(listed.runs[0]!.status).toBe('running');
      // Both start while the run waits on its second task's model call, and must outlive it.
      // Released only once each follower has shown the events so far (so it is following, not reading a finished run).
      const shown = (child: ChildProcess): Promise<void> =>
        new Promise((resolve) => {
          let out = '';
          child.stdout!.on('data', (d: Buffer | string) => {
            out += String(d);
            if (out.includes('task first: completed')) resolve();
          });
        });
      let followerShown!: Promise<void>;
      let inspectorShown!: Promise<void>;
      const following = runCli(['logs', runId, '-f'], { cwd: dir, onSpawn: (c) => (followerShown = shown(c)) });
      const inspecting = runCli(['inspect', runId, '--follow'], { cwd: dir, onSpawn: (c) => (inspectorShown = shown(c)) });
      // What was stored so far, without -f, ends at once.
      const sofar = await runCli(['logs', runId], { cwd: dir });
      expect(sofar.code, sofar.stderr).toBe(0);
      expect(sofar.stdout).toMatch(/^\d\d:\d\d:\d\d task first: completed$/m);
      expect(sofar.stdout).not.toContain('task second: completed');
      await Promise.all([followerShown, inspectorShown]);
      release();
      expect((await running).code).toBe(0);
      const followed = await following;
      expect(followed.code, followed.stderr).toBe(0);
      const lines = followed.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d running mission m \(run_\w+\)$/);
      expect(followed.stdout).toMatch(/task first: started[\s\S]*task first: completed[\s\S]*task second: started[\s\S]*task second: completed/);
      expect(lines.at(-1)).toMatch(/^\d\d:\d\d:\d\d run completed$/);
      const inspected = await inspecting;
      expect(inspected.code, inspected.stderr).toBe(0);
      expect(inspected.stdout).toMatch(/task second: completed[\s\S]*run completed\n\nrun run_\w+ · mission m · completed/);
      // --json: one object a line, in the order stored.
      const json = await runCli(['logs', runId, '--json'], { cwd: dir });
      const events = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { id: number; type: string; event: { type: string } });
      expect(events[0]!.type).toBe('run.started');
      expect(events.at(-1)!.type).toBe('run.finished');
      expect(events.every((e, i) => e.event.type === e.type && (i === 0 || e.id > events[i - 1]!.id))).toBe(true);
    });
  });

  it('names an unknown run', async () => {
    await withFakeModelServer(turnScript({ [commanderOf('first')]: [taskComplete('a')], [commanderOf('second')]: [taskComplete('b')] }).respond, async (server) => {
      const dir = writeProject(mission(fakeModelBlock(server)));
      expect((await runCli(['run', dir], { cwd: dir })).code).toBe(0);
      const r = await runCli(['logs', 'run_nope', '-f'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: no run run_nope in /);
    });
  });
});
