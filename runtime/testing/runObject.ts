// What a test's assertions read as `run`: built from the stored run as `squadron inspect` reads it
// (inspectRun), never from the live report, so a test checks what the store holds. The fields are
// config/testCheck.ts's RUN_FIELDS and TASK_FIELDS, documented in docs/concepts/testing.md.

import type { ObjectValue, Value } from '../../config/hcl/value.js';
import type { LedgerRow } from '../../store/index.js';
import type { RunInspection } from '../inspect/inspect.js';
import { totalTokens } from '../kernel/usage.js';

export function runObject(inspection: RunInspection): ObjectValue {
  const calls = inspection.tasks
    .flatMap((t) => t.sessions ?? [])
    .flatMap((s) => s.toolCalls.map((row) => ({ row, task: s.task, agent: s.agent })))
    // World tools only (builtins.*, tools.*, mcp.*): the orchestration tools are the runtime's own.
    .filter((c) => c.row.toolRef.includes('.'))
    .sort((a, b) => a.row.id - b.row.id);
  const tasks: ObjectValue = {};
  for (const t of inspection.tasks) {
    tasks[t.name] = {
      status: t.status,
      output: asValue(t.output),
      summary: t.summary ?? null,
      route: t.route ?? null,
      error: t.error ?? null,
      items: (t.items?.list ?? []).map((i) => ({ index: i.index, status: i.status, summary: i.summary ?? null, output: asValue(i.output), error: i.error ?? null })),
    };
  }
  return {
    status: inspection.run.status,
    error: inspection.run.error ?? null,
    cost_usd: inspection.usage.costUsd,
    tokens: totalTokens(inspection.usage),
    turns: inspection.usage.turns,
    tasks,
    tools_called: calls.map((c) => c.row.toolRef),
    tool_calls: calls.map((c) => callObject(c.row, c.task, c.agent)),
    approvals: inspection.requests
      .filter((r) => r.kind === 'approval')
      .map((r) => ({ task: r.task, agent: r.agent, tool: r.toolRef, input: asValue(r.payload), status: r.status, reason: r.reason ?? null })),
    budget_stopped: inspection.control.events.some((e) => e.type === 'budget.exceeded'),
  };
}

function callObject(row: LedgerRow, task: string, agent: string): ObjectValue {
  const text = row.result?.content.map((c) => (c.type === 'text' ? c.text : '')).join('') ?? null;
  return {
    tool: row.toolRef,
    input: asValue(row.input),
    // A JSON document (object or list) is read as a value, so `result.status == 200` works; else text.
    result: text === null ? null : jsonOrText(text),
    is_error: row.result?.isError ?? false,
    mocked: row.result?.mocked === true,
    status: row.status,
    task,
    agent,
  };
}

function jsonOrText(text: string): Value {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return text;
  try {
    return asValue(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Stored JSON as an HCL value (undefined → null). */
function asValue(v: unknown): Value {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(asValue);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, asValue(x)]));
  return null;
}
