// The operations api/ gained so that the CLI goes through it: formatting, the task graph, a task's
// tools, a run resolved once, and a watcher of a run. Each through the API itself, in process (the
// commands built on them are tested end to end through the CLI in test/e2e).

import { cpSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatFiles, formatSource } from '../../api/fmt.js';
import { missionTaskGraph } from '../../api/graph.js';
import { openProject, resolveRun, run, SquadronError, type RunEvent, type RunStart } from '../../api/index.js';
import { taskTools } from '../../api/tools.js';
import { REPO_ROOT } from '../support/cli.js';
import { removeTempProjects, tempProject, withMission } from '../config/support.js';

afterAll(removeTempProjects);

const twoTasks = withMission(`  task "gather" {
    objective = "gather"
    tools     = [builtins.http.get]
  }
  task "write" {
    objective  = "write"
    depends_on = [tasks.gather]
    direct     = true
    tools      = [builtins.utils.sleep]
  }
`);

describe('formatSource and formatFiles', () => {
  it('formats text, and reports a syntax error as diagnostics without text', () => {
    expect(formatSource('a   =  1\nbb = 2\n', 'x.hcl')).toEqual({ text: 'a  = 1\nbb = 2\n', diagnostics: [] });
    const broken = formatSource('a = {\n', 'x.hcl');
    expect(broken.text).toBeUndefined();
    expect(broken.diagnostics.length).toBeGreaterThan(0);
    expect(broken.diagnostics[0]!.severity).toBe('error');
  });

  it('says which files change, rewrites them only when asked, and never touches an invalid one', () => {
    const dir = tempProject({ 'a.hcl': 'x   = 1\n', 'b.hcl': 'y = 2\n', 'c.hcl': 'z = {\n' });
    const dry = formatFiles([dir], { write: false, keepText: true });
    const status = Object.fromEntries(dry.files.map((f) => [f.path.slice(dir.length + 1), f.status]));
    expect(status).toEqual({ 'a.hcl': 'formatted', 'b.hcl': 'unchanged', 'c.hcl': 'invalid' });
    expect(dry.files.find((f) => f.status === 'formatted')).toMatchObject({ before: 'x   = 1\n', after: 'x = 1\n' });
    expect(dry.diagnostics.map((d) => d.file)).toEqual([join(dir, 'c.hcl')]);
    expect(readFileSync(join(dir, 'a.hcl'), 'utf8')).toBe('x   = 1\n');
    formatFiles([dir], { write: true });
    expect(readFileSync(join(dir, 'a.hcl'), 'utf8')).toBe('x = 1\n');
    expect(readFileSync(join(dir, 'c.hcl'), 'utf8')).toBe('z = {\n');
  });
});

describe('missionTaskGraph', () => {
  it("gives the mission's tasks, their edges and the direct ones", () => {
    const graph = missionTaskGraph(openProject(tempProject({ 'main.hcl': twoTasks })));
    expect(graph).toMatchObject({ mission: 'm', tasks: ['gather', 'write'], direct: ['write'] });
    expect(graph.edges).toEqual([expect.objectContaining({ from: 'gather', to: 'write', kind: 'depends_on' })]);
  });
});

describe('taskTools', () => {
  const project = (): ReturnType<typeof openProject> => openProject(tempProject({ 'main.hcl': twoTasks }));

  it("lists a task's tools with their provenance, and searches them as search_tools does", async () => {
    const listing = await taskTools({ config: project(), task: 'gather' });
    expect(listing.task).toBe('gather');
    expect(listing.tools.map((t) => [t.ref, t.via])).toContainEqual(['builtins.http.get', 'task']);
    const page = listing.search('http get');
    expect(page.results[0]!.ref).toBe('builtins.http.get');
    expect(page.total).toBeGreaterThan(0);
  });

  it('refuses an unknown task (not_found) and an ambiguous choice (usage)', async () => {
    await expect(taskTools({ config: project(), task: 'nope' })).rejects.toMatchObject({ name: 'SquadronError', code: 'not_found' });
    await expect(taskTools({ config: project() })).rejects.toMatchObject({ name: 'SquadronError', code: 'usage' });
  });
});

describe('resolveRun, then run with a watcher', () => {
  function quickstart(): string {
    const dir = tempProject({});
    cpSync(join(REPO_ROOT, 'examples', 'quickstart'), dir, { recursive: true, filter: (src) => !src.endsWith('/.squadron') });
    return dir;
  }

  it('selects the mission, converts the inputs and makes every path absolute once', async () => {
    const dir = quickstart();
    const spec = await resolveRun({ config: dir, inputs: { topic: 'tides' }, replay: 'cassette.json', workspace: 'ws' });
    expect(spec.mission.name).toBe('quickstart');
    expect(spec.inputs).toMatchObject({ topic: 'tides' });
    expect(spec.db).toBe(join(dir, '.squadron', 'squadron.db'));
    expect(spec.options.replay).toBe(resolve('cassette.json'));
    expect(spec.workspace).toBe(resolve('ws'));
    await expect(resolveRun({ config: dir, replay: 'a', record: 'b' })).rejects.toBeInstanceOf(SquadronError);
    await expect(resolveRun({ config: dir, mission: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it("hands the watcher the run's tasks before the first event, every event, then closes it once", async () => {
    const dir = quickstart();
    const spec = await resolveRun({ config: dir, inputs: { topic: 'tide pools' } });
    const seen: { start?: RunStart; events: RunEvent['type'][]; closed: number } = { events: [], closed: 0 };
    const report = await run(spec, {
      watch: (start) => {
        seen.start = start;
        return { sink: (e) => seen.events.push(e.type), close: () => void seen.closed++ };
      },
    });
    expect(report.status).toBe('completed');
    expect(seen.start).toEqual({ tasks: ['research', 'review'], states: expect.any(Map), spent: { tokens: 0, cost: 0 } });
    expect(seen.events[0]).toBe('run.started');
    expect(seen.events.at(-1)).toBe('run.finished');
    expect(seen.closed).toBe(1);
  }, 120_000);
});
