// Mission graph rules: tasks exist, no self-references or repeats, router xor send_to, dynamic
// targets without depends_on, something can start, and no cycles (printed as a path).

import { afterAll, expect, test } from 'vitest';
import { at, codes, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const t = (name: string, extra = '') => `  task "${name}" {\n    objective = "do ${name}"\n    tools     = [builtins.http.get]\n${extra}  }\n`;

test('a mission needs at least one task (GRA001)', () => {
  const src = withMission('');
  expect(codes(loadHcl(src))).toEqual([`GRA001@${at(src, 'mission "m"')}`]);
});

test('a task that depends on itself is GRA003 at the reference', () => {
  const src = withMission(t('a') + t('b', '    depends_on = [tasks.a, tasks.b]\n'));
  expect(codes(loadHcl(src))).toEqual([`GRA003@${at(src, 'tasks.b]')}`]);
});

test('a dependency cycle is GRA004 and its message prints the path', () => {
  const src = withMission(t('start') + t('a', '    depends_on = [tasks.c]\n') + t('b', '    depends_on = [tasks.a]\n') + t('c', '    depends_on = [tasks.b]\n'));
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`GRA004@${at(src, 'tasks.c]')}`]);
  expect(r.diagnostics[0]!.message).toBe('dependency cycle: a → b → c → a');
});

test('a cycle through send_to and depends_on is found too', () => {
  const src = withMission(t('a') + t('b', '    depends_on = [tasks.a]\n    send_to = [tasks.c]\n') + t('c', '    send_to = [tasks.b]\n'));
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`GRA007@${at(src, 'depends_on')}`, `GRA004@${at(src, 'tasks.b]')}`]);
  expect(r.diagnostics.find((d) => d.code === 'GRA004')!.message).toBe('dependency cycle: b → c → b');
});

test('router and send_to targets must exist (REF003)', () => {
  const src = withMission(t('a', '    router {\n      route {\n        target    = tasks.nope\n        condition = "if good"\n      }\n    }\n') + t('b', '    send_to = [tasks.zzz]\n'));
  expect(codes(loadHcl(src))).toEqual([`REF003@${at(src, 'tasks.nope')}`, `REF003@${at(src, 'tasks.zzz')}`]);
});

test('router and send_to together is GRA005 at send_to', () => {
  const src = withMission(t('a', '    send_to = [tasks.b]\n    router {\n      route {\n        target    = tasks.c\n        condition = "x"\n      }\n    }\n') + t('b') + t('c'));
  expect(codes(loadHcl(src))).toEqual([`GRA005@${at(src, 'send_to')}`]);
});

test('a target listed twice is GRA006 at the repeat', () => {
  const src = withMission(t('a', '    send_to = [tasks.b, tasks.b]\n') + t('b') + t('c', '    router {\n      route {\n        target    = tasks.b\n        condition = "x"\n      }\n      route {\n        target    = tasks.b\n        condition = "y"\n      }\n    }\n'));
  expect(codes(loadHcl(src))).toEqual([`GRA006@${at(src, 'tasks.b]')}`, `GRA006@${at(src, 'tasks.b\n', 1)}`]);
});

test('a router/send_to target with depends_on is GRA007; depending on one is GRA010', () => {
  const src = withMission(t('a', '    send_to = [tasks.b]\n') + t('b', '    depends_on = [tasks.c]\n') + t('c') + t('d', '    depends_on = [tasks.b]\n'));
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`GRA007@${at(src, 'depends_on')}`, `GRA010@${at(src, 'tasks.b]', 1)}`]);
});

test('no startable task is GRA008 at the mission', () => {
  const src = withMission(t('a', '    send_to = [tasks.b]\n') + t('b', '    send_to = [tasks.a]\n'));
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`GRA008@${at(src, 'mission "m"')}`, `GRA004@${at(src, 'tasks.a]')}`]);
});

test('routes and send_to land in the TaskSpec', () => {
  const src = withMission(t('a', '    router {\n      route {\n        target    = tasks.b\n        condition = "needs more"\n      }\n    }\n') + t('b') + t('c', '    depends_on = [tasks.a]\n    send_to = [tasks.d]\n') + t('d'));
  const r = loadHcl(src);
  expect(codes(r)).toEqual([]);
  const [a, , c] = r.graph!.missions[0]!.tasks;
  expect(a!.router).toEqual([{ target: 'b', condition: 'needs more' }]);
  expect([c!.dependsOn, c!.sendTo]).toEqual([['a'], ['d']]);
});

test('a router needs at least one route (SCH004)', () => {
  const src = withMission(t('a', '    router {\n    }\n'));
  expect(codes(loadHcl(src))).toEqual([`SCH004@${at(src, 'router')}`]);
});

test('a cycle at the end of a chain of 8,000 tasks is found, without a frame per task', () => {
  let src = t('t0', '    depends_on = [tasks.t7999]\n');
  for (let i = 1; i < 8000; i++) src += t(`t${i}`, `    depends_on = [tasks.t${i - 1}]\n`);
  const r = loadHcl(withMission(t('start') + src));
  expect(r.diagnostics.map((d) => d.code)).toEqual(['GRA004']);
  expect(r.diagnostics[0]!.message).toMatch(/^dependency cycle: t0 → t1 → t2 → .* → t7999 → t0$/);
});
