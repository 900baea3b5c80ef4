// examples/ticket-triage runs offline from its cassette: 22 tickets triaged in parallel (one commander
// per item), then a report task that answers by query_task_output. After a deliberate prompt change,
// re-record with `node dist/test/support/recordExample.js ticket-triage` and review the diff.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('examples/ticket-triage', () => {
  it('triages every ticket in parallel and reports through query_task_output, replayed at no cost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'squadron-triage-'));
    const r = await runCli(['run', 'examples/ticket-triage', '--json', '--db', join(dir, 't.db'), '--workspace', join(dir, 'ws')], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      usage: { cost_usd: number; model_turns: number };
      tasks: Record<string, { status: string; output: unknown; summary: string; items?: { total: number; completed: number; list: { index: number; output: unknown }[] } }>;
    };
    expect(doc.tasks['triage']!.items).toMatchObject({ total: 22, completed: 22 });
    expect(doc.tasks['triage']!.items!.list[3]).toMatchObject({ index: 3, output: { priority: 'high', team: 'platform' } });
    expect(doc.tasks['report']!.output).toEqual({ high_priority: 7, busiest_team: 'billing' });
    expect(doc.tasks['report']!.summary).toContain('item 0 (billing), item 3 (platform)');
    expect(doc.usage).toMatchObject({ cost_usd: 0, model_turns: 26 });

    const inspect = await runCli(['inspect', JSON.parse(r.stdout).run_id, '--db', join(dir, 't.db'), '--task', 'triage', '--item', '5']);
    expect(inspect.stdout).toContain('[5] completed');
    expect(inspect.stdout).toContain('"team": "billing"');
  });
});
