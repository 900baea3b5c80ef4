// examples/support-triage runs offline from its cassette: the triage task classifies the default ticket
// (a question) and routes to answer_question; reproduce_bug is skipped; the reply task, started by
// send_to, submits the customer reply. Nothing reaches the network. After a deliberate prompt change,
// re-record with `node dist/test/support/recordExample.js support-triage` and review the diff.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('examples/support-triage', () => {
  it('routes the recorded question to answer_question and replies through send_to, replayed at no cost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'squadron-support-'));
    const r = await runCli(['run', 'examples/support-triage', '--json', '--db', join(dir, 't.db'), '--workspace', join(dir, 'ws')], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('replay');
    const doc = JSON.parse(r.stdout) as { status: string; usage: { cost_usd: number; model_turns: number }; tasks: Record<string, { status: string; output?: unknown }> };
    expect(doc.status).toBe('completed');
    expect(doc.tasks['triage']).toMatchObject({ status: 'completed', output: { category: 'question' } });
    expect(doc.tasks['reproduce_bug']!.status).toBe('skipped');
    expect(doc.tasks['answer_question']!.status).toBe('completed');
    expect((doc.tasks['reply']!.output as { reply: string }).reply).toContain('"Download all"');
    expect(doc.usage).toMatchObject({ cost_usd: 0, model_turns: 5 });
  });

  it('another ticket than the recorded one stops at the first request, naming the cause', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'squadron-support-'));
    const r = await runCli(['run', 'examples/support-triage', '-i', 'ticket=The export button crashes the app', '--db', join(dir, 't.db'), '--workspace', join(dir, 'ws')], { timeoutMs: 120_000 });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('the task objective differs from the recording');
  });
});
