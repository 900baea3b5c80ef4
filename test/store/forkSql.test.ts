// The fork copy's statements: placeholders numbered for PostgreSQL, as many values as placeholders,
// a whole session copied with every row, a cut one only up to its request and its earlier calls.

import { describe, expect, it } from 'vitest';
import { forkStatements, numbered } from '../../store/forkSql.js';

const fork = { task: 'draft', changes: [], copied: ['prepare'] };

describe('fork copy statements', () => {
  it('numbers ? placeholders in order for PostgreSQL', () => {
    expect(numbered('SELECT ?, ? FROM t WHERE a = ? AND b < ?')).toBe('SELECT $1, $2 FROM t WHERE a = $3 AND b < $4');
  });

  it('every statement has as many values as placeholders', () => {
    const statements = forkStatements(
      {
        parentId: 'run_p',
        childId: 'run_c',
        fork,
        tasks: ['prepare'],
        runningTask: 'draft',
        sessions: [
          { from: 'ses_a', to: 'ses_b' },
          { from: 'ses_c', to: 'ses_d', cut: { beforeSeq: 4, beforeTurn: 2, callIds: ['call_1', 'call_2'], before: '2026-01-01T00:00:00.000Z' } },
        ],
      },
      '{}',
    );
    for (const s of statements) expect([s.sql, s.sql.split('?').length - 1]).toEqual([s.sql, s.values.length]);
  });

  it('cuts a session before its reply: messages, turns and views below the cut, tool calls and approvals of the kept calls only, running again with no answer', () => {
    const statements = forkStatements(
      { parentId: 'run_p', childId: 'run_c', fork, tasks: [], sessions: [{ from: 'ses_c', to: 'ses_d', cut: { beforeSeq: 4, beforeTurn: 2, callIds: ['call_1'], before: 't' } }] },
      '{}',
    );
    const find = (table: string) => statements.filter((s) => s.sql.startsWith(`INSERT INTO ${table} `));
    expect(find('messages')[0]).toMatchObject({ values: ['ses_d', 'ses_c', 4] });
    expect(find('model_turns')[0]!.values).toEqual(['run_c', 'ses_d', 'ses_c', 2]);
    expect(find('tool_calls').map((s) => s.values)).toEqual([['ses_d', 'ses_c', 'call_1']]);
    expect(find('operator_requests')[0]!.sql).toContain("status <> 'pending'");
    expect(find('sessions')[0]!.sql).toMatch(/SELECT \?, \?, task_name, agent, role, model, 'running', '', tools_json, skills_json, NULL, answer_delivered <> answer_delivered, started_at, NULL FROM sessions/);
  });
});
