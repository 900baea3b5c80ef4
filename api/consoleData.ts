// What the web console reads that the run documents do not give in one piece: a page of runs with
// filters (a store of 10,000 runs lists one page, not all), a window of a conversation (a session of
// 10,000 messages is read a page at a time), the tool-call ledger of a run, and the inbox of pending
// approvals and questions across runs. Messages, inputs and results are read as stored: redacted.

import type { OperatorRequestRow, RunSummary, Store } from '../store/index.js';
import { totalTokens } from '../runtime/kernel/usage.js';
import { requestJson } from './requestJson.js';
import { runListItem, type RunListItem } from './runDocuments.js';

export interface RunsPageQuery {
  limit: number;
  offset: number;
  mission?: string;
  /** A stored status (`running`, `waiting`, `completed`, `failed`, `interrupted`, ...). */
  status?: string;
  /** ISO dates (or times): runs started on or after `since`, before `until`. */
  since?: string;
  until?: string;
}

export interface RunsPage {
  /** More runs match past this page. */
  has_more: boolean;
  /** Missions seen among the runs read (the caller adds the config's). */
  missions: string[];
  runs: (RunListItem & { finished_at: string | null })[];
}

/**
 * Listing a run costs its usage totals, so the store is asked for the newest runs a chunk at a time
 * (the page and one more without filters; growing chunks when a status or date filter drops rows),
 * never all 10,000 at once for the first page; only the page's rows are read further.
 */
export async function listRunsPage(store: Store, q: RunsPageQuery): Promise<RunsPage> {
  const since = q.since ? Date.parse(q.since) : Number.NaN;
  const until = q.until ? Date.parse(q.until) : Number.NaN;
  const filtered = q.status !== undefined || !Number.isNaN(since) || !Number.isNaN(until);
  const match = (r: RunSummary): boolean =>
    (q.status === undefined || r.status === q.status) && (Number.isNaN(since) || Date.parse(r.startedAt) >= since) && (Number.isNaN(until) || Date.parse(r.startedAt) < until);
  const want = q.offset + q.limit + 1;
  let chunk = filtered ? Math.max(want * 4, 500) : want;
  let rows: RunSummary[];
  let kept: RunSummary[];
  for (;;) {
    rows = await store.runs.list({ limit: chunk, ...(q.mission !== undefined ? { mission: q.mission } : {}) });
    kept = rows.filter(match);
    if (kept.length >= want || rows.length < chunk) break;
    chunk *= 4;
  }
  const runs = [];
  for (const r of kept.slice(q.offset, q.offset + q.limit)) runs.push({ ...(await runListItem(store, r)), finished_at: r.finishedAt ?? null });
  return { has_more: kept.length > q.offset + q.limit, missions: [...new Set(rows.map((r) => r.mission))].sort(), runs };
}

export interface SessionEntry {
  id: string;
  task: string;
  agent: string;
  role: string;
  model: string;
  status: string;
  started_at: string;
  finished_at: string | null;
  messages: number;
}

/** The sessions (commander and agents) of one task of a run, in the order they started. */
export async function taskSessions(store: Store, runId: string, task: string): Promise<SessionEntry[]> {
  const sessions = (await store.sessions.listForRun(runId)).filter((s) => s.task === task || s.task.startsWith(`${task}[`));
  const out: SessionEntry[] = [];
  for (const s of sessions) {
    out.push({
      id: s.id,
      task: s.task,
      agent: s.agent,
      role: s.role,
      model: s.model,
      status: s.status,
      started_at: s.startedAt,
      finished_at: s.finishedAt ?? null,
      messages: await store.messages.count(s.id),
    });
  }
  return out.sort((a, b) => a.started_at.localeCompare(b.started_at));
}

export interface TranscriptPage {
  session: string;
  total: number;
  /** seq of the first message answered (1-based). */
  from: number;
  messages: { seq: number; role: string; turn: number; kind: string | null; created_at: string; parts: unknown[] }[];
  /** Tool calls of the page's messages as the ledger has them (status, timings). */
  calls: Record<string, { status: string; started_at: string; finished_at: string | null }>;
}

/** Messages `from`..`from+limit-1` of a session of `runId`; undefined when the session is not the run's. */
export async function transcriptPage(store: Store, runId: string, sessionId: string, from: number, limit: number): Promise<TranscriptPage | undefined> {
  const session = await store.sessions.byId(sessionId);
  if (!session || session.runId !== runId) return undefined;
  const heads = await store.messages.heads(sessionId);
  const seqs = heads.filter((h) => h.seq >= from).slice(0, limit).map((h) => h.seq);
  const rows = await store.messages.listSeqs(sessionId, seqs);
  const ids = new Set(rows.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_use' ? [p.id] : []))));
  const calls: TranscriptPage['calls'] = {};
  if (ids.size > 0) {
    for (const c of await store.ledger.listForSession(sessionId)) {
      if (ids.has(c.callId)) calls[c.callId] = { status: c.status, started_at: c.startedAt, finished_at: c.finishedAt ?? null };
    }
  }
  return {
    session: sessionId,
    total: heads.length,
    from,
    messages: rows.map((m) => ({ seq: m.seq, role: m.role, turn: m.turn, kind: m.kind ?? null, created_at: m.createdAt, parts: m.parts })),
    calls,
  };
}

/** Every side-effecting call of a run, in start order per session: done, replayed on resume, pending, never finished. */
export async function runLedger(store: Store, runId: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const s of await store.sessions.listForRun(runId)) {
    for (const c of await store.ledger.listForSession(s.id)) {
      out.push({
        task: s.task,
        agent: s.agent,
        call_id: c.callId,
        tool: c.toolRef,
        status: c.status,
        idempotent: c.idempotent,
        input: c.input,
        ...(c.result !== undefined ? { result: c.result } : {}),
        started_at: c.startedAt,
        finished_at: c.finishedAt ?? null,
      });
    }
  }
  return out;
}

/** Pending approvals and questions of every waiting run, newest run first. */
export async function inbox(store: Store): Promise<{ run_id: string; mission: string; requests: Record<string, unknown>[] }[]> {
  // The pending requests themselves, grouped by run: not every run of the database with its totals.
  const byRun = new Map<string, OperatorRequestRow[]>();
  for (const r of await store.operatorRequests.pending()) byRun.set(r.runId, [...(byRun.get(r.runId) ?? []), r]);
  const out = [];
  for (const [runId, requests] of byRun) {
    const run = await store.runs.get(runId);
    if (run?.status === 'waiting') out.push({ run_id: runId, mission: run.mission, requests: requests.map(requestJson) });
  }
  return out;
}

/** A run's tokens and cost per model (and per task within it), from the usage its sessions recorded. */
export async function usageByModel(store: Store, runId: string): Promise<{ model: string; tasks: string[]; tokens: number; input_tokens: number; output_tokens: number; cost_usd: number; turns: number }[]> {
  const totals = await store.turns.totalsBySession(runId);
  const byModel = new Map<string, { model: string; tasks: Set<string>; tokens: number; input_tokens: number; output_tokens: number; cost_usd: number; turns: number }>();
  for (const s of await store.sessions.listForRun(runId)) {
    const u = totals.get(s.id);
    if (!u) continue;
    const m = byModel.get(s.model) ?? { model: s.model, tasks: new Set<string>(), tokens: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, turns: 0 };
    m.tasks.add(s.task.replace(/\[\d+\]$/, ''));
    m.tokens += totalTokens(u);
    m.input_tokens += u.inputTokens;
    m.output_tokens += u.outputTokens;
    m.cost_usd += u.costUsd;
    m.turns += u.turns;
    byModel.set(s.model, m);
  }
  return [...byModel.values()].map((m) => ({ ...m, tasks: [...m.tasks].sort(), cost_usd: Number(m.cost_usd.toFixed(6)) })).sort((a, b) => b.cost_usd - a.cost_usd || b.tokens - a.tokens);
}

/** A large result stored whole (its handle shown in the transcript), read on demand; undefined when the session holds no such handle. */
export async function storedResult(store: Store, runId: string, sessionId: string, handle: string): Promise<{ handle: string; bytes: number; format: string; text: string; images: number } | undefined> {
  const session = await store.sessions.byId(sessionId);
  if (!session || session.runId !== runId || !/^res_[0-9a-f]{16}$/.test(handle)) return undefined;
  const got = await store.storedResults.read(sessionId, handle);
  if (!got) return undefined;
  return { handle, bytes: got.bytes, format: got.payload.format, text: got.payload.text, images: got.payload.images.length };
}

export interface DeliveryEntry {
  at: string;
  mission: string;
  /** started (its run stored), starting (accepted, run not stored yet), duplicate, replayed, refused. */
  status: 'started' | 'starting' | 'duplicate' | 'replayed' | 'refused';
  run_id: string | null;
  /** The status of the run now, when stored. */
  run_status: string | null;
  reason: string | null;
}

/** The recent deliveries to a trigger (`path` as the config writes it), newest first: no signature, key or secret is kept to show. */
export async function triggerDeliveries(store: Store, path: string, limit: number): Promise<DeliveryEntry[]> {
  return (await store.webhookDeliveries.recent(path, limit)).map((d) => ({
    at: d.createdAt,
    mission: d.mission,
    // A start refused after the 202 was written as refused; an accepted one whose run is gone and no
    // longer waits was started and its run removed since (`squadron runs prune`).
    status: d.outcome !== 'accepted' ? d.outcome : d.starting && d.runStatus === undefined ? 'starting' : 'started',
    run_id: d.runId ?? null,
    run_status: d.runStatus ?? null,
    reason: d.reason ?? (d.outcome === 'accepted' && d.runStatus === undefined && !d.starting ? 'its run is no longer in the database' : null),
  }));
}
