// Datasets and iterators in the config: where items come from, the schema check of written items,
// the iterator's settings and Go's rules (parallel-only settings, no item in a sequential
// objective, no router on a parallel iterator), each a diagnostic at its exact position.

import { afterAll, describe, expect, test } from 'vitest';
import { datasetItems } from '../../config/datasetItems.js';
import { renderObjective } from '../../config/objective.js';
import { at, codes, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const TICKETS = `  input "tickets" {
    type = "list"
  }
  dataset "tickets" {
    bind_to = inputs.tickets
    schema = {
      id      = integer("ticket id", true)
      subject = string("subject", true)
    }
  }
`;

const task = (iterator: string, objective = 'Triage ${item.id}', extra = ''): string =>
  `  task "t" {\n    objective = "${objective}"\n    tools     = [builtins.http.get]\n${extra}    iterator {\n${iterator}    }\n  }\n`;

describe('datasets', () => {
  test('a bound list input and a parallel iterator load into the graph, defaults applied', () => {
    const r = loadHcl(withMission(TICKETS + task('      dataset  = datasets.tickets\n      parallel = true\n')));
    expect(codes(r)).toEqual([]);
    const m = r.graph!.missions[0]!;
    expect(m.datasets.map((d) => [d.name, d.source, d.schema?.map((f) => f.name)])).toEqual([['tickets', { kind: 'input', input: 'tickets' }, ['id', 'subject']]]);
    expect(m.tasks[0]!.iterator).toEqual({ dataset: 'tickets', parallel: true, concurrencyLimit: 5, maxRetries: 0, startDelayMs: 0, smoketest: false, onFailure: 'continue' });
  });

  test('written items are checked against the schema: one ITR003 per bad item, at the item', () => {
    const src = withMission(`  dataset "d" {
    items = [
      { id = 1, subject = "ok" },
      { id = "two" },
      { id = 3, subject = "c", extra = true },
    ]
    schema {
      field "id" {
        type     = "integer"
        required = true
      }
      field "subject" {
        type     = "string"
        required = true
      }
    }
  }
${task('      dataset = datasets.d\n', 'Walk them')}`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`ITR003@${at(src, '{ id = "two" }')}`, `ITR003@${at(src, '{ id = 3,')}`]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      'item 1 of dataset "d" does not match its schema: item[1].id: expected an integer, got string "two"; item[1].subject: required field is missing',
      'item 2 of dataset "d" does not match its schema: item[2].extra: not a declared schema field (declared: id, subject)',
    ]);
  });

  test('filled at run time but nobody holds builtins.dataset.set (ITR001 warning), both sources (SCH012), a non-list input (ITR002), items not a list (SCH007)', () => {
    const src = withMission(`  input "team" {
    type = "string"
  }
  input "xs" {
    type = "list"
  }
  dataset "none" {
  }
  dataset "both" {
    items   = [1]
    bind_to = inputs.xs
  }
  dataset "text" {
    bind_to = inputs.team
  }
  dataset "scalar" {
    items = "abc"
  }
${task('      dataset = datasets.none\n', 'x')}`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`w:ITR001@${at(src, '"none"')}`, `SCH012@${at(src, 'bind_to = inputs.xs')}`, `ITR002@${at(src, 'inputs.team')}`, `SCH007@${at(src, '"abc"')}`]);
  });

  test('bind_to must name a declared input; iterator.dataset a declared dataset (REF003 with a suggestion)', () => {
    const src = withMission(TICKETS.replace('inputs.tickets', 'inputs.tickts') + task('      dataset = datasets.tickts\n', 'x'));
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'inputs.tickts')}`, `REF003@${at(src, 'datasets.tickts')}`]);
    expect(r.diagnostics[1]!.hint).toContain('datasets.tickets');
  });

  test('a dataset without items or bind_to is filled at run time: no warning when a task holds builtins.dataset.set', () => {
    const src = withMission(`  dataset "found" {\n  }\n  task "fill" {\n    objective = "x"\n    tools     = [builtins.dataset.set]\n  }\n${task('      dataset = datasets.found\n', 'x').replace('task "', 'task "walk_').replace('objective', 'depends_on = [tasks.fill]\n    objective')}`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.datasets[0]!.source).toEqual({ kind: 'filled' });
  });

  test('a dataset nobody iterates over is a warning (ITR007)', () => {
    const src = withMission(`  dataset "spare" {\n    items = [1, 2]\n  }\n  task "t" {\n    objective = "x"\n    tools     = []\n  }\n`);
    expect(codes(loadHcl(src))).toEqual([`w:ITR007@${at(src, '"spare"')}`]);
  });
});

describe('iterator rules', () => {
  test('parallel-only settings on a sequential iterator are ITR004; max_retries is a warning (ITR008)', () => {
    const src = withMission(
      TICKETS + task('      dataset           = datasets.tickets\n      concurrency_limit = 3\n      start_delay       = 10\n      smoketest         = true\n      on_failure        = "stop"\n      max_retries       = 2\n', 'Walk'),
    );
    const r = loadHcl(src);
    expect(codes(r)).toEqual([
      `ITR004@${at(src, 'concurrency_limit')}`,
      `ITR004@${at(src, 'start_delay')}`,
      `ITR004@${at(src, 'smoketest')}`,
      `ITR004@${at(src, 'on_failure')}`,
      `w:ITR008@${at(src, 'max_retries')}`,
    ]);
  });

  test('item in a sequential objective, and in a task without an iterator, is ITR005 at the reference', () => {
    const seq = withMission(TICKETS + task('      dataset = datasets.tickets\n', 'Walk ${item_index}'));
    expect(codes(loadHcl(seq))).toEqual([`ITR005@${at(seq, 'item_index')}`]);
    const none = withMission(`  task "t" {\n    objective = "Do \${item.id}"\n    tools     = []\n  }\n`);
    const r = loadHcl(none);
    expect(codes(r)).toEqual([`ITR005@${at(none, 'item.id')}`]);
    expect(r.diagnostics[0]!.hint).toBe('add iterator { dataset = datasets.<name>, parallel = true } to the task');
  });

  test('a parallel iterator cannot have a router (ITR006); a sequential one can', () => {
    const router = '    router {\n      route {\n        target    = tasks.u\n        condition = "always"\n      }\n    }\n';
    const u = '  task "u" {\n    objective = "u"\n    tools     = []\n  }\n';
    const par = withMission(TICKETS + task('      dataset  = datasets.tickets\n      parallel = true\n', 'Triage ${item.id}', router) + u);
    expect(codes(loadHcl(par))).toEqual([`ITR006@${at(par, 'router {')}`]);
    const seq = withMission(TICKETS + task('      dataset = datasets.tickets\n', 'Walk', router) + u);
    expect(codes(loadHcl(seq))).toEqual([]);
  });

  test('out-of-range settings and an unknown on_failure are reported', () => {
    const src = withMission(TICKETS + task('      dataset           = datasets.tickets\n      parallel          = true\n      concurrency_limit = 0\n      on_failure        = "halt"\n'));
    expect(codes(loadHcl(src))).toEqual([`SCH013@${at(src, '0\n')}`, `SCH010@${at(src, '"halt"')}`]);
  });
});

describe('items at run time', () => {
  test('a bound input is checked against the schema, every bad item named by index; the objective renders per item', () => {
    const r = loadHcl(withMission(TICKETS + task('      dataset  = datasets.tickets\n      parallel = true\n', 'Triage ${item.id}: ${item.subject} (#${item_index})')));
    const m = r.graph!.missions[0]!;
    const given = datasetItems(m.datasets[0]!, { tickets: [{ id: 1, subject: 'a' }, { id: 'x' }, 7] });
    expect(given.items).toHaveLength(3);
    expect(given.problems).toEqual([
      'dataset "tickets" item 1: item[1].id: expected an integer, got string "x"; item[1].subject: required field is missing',
      'dataset "tickets" item 2: item[2]: expected an object, got number 7',
    ]);
    expect(renderObjective(m.tasks[0]!, [], { tickets: [] }, { value: { id: 1, subject: 'a' }, index: 0 }).text).toBe('Triage 1: a (#0)');
  });
});
