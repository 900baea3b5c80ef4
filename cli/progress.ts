// Human progress on stderr, a watcher of a run's events (api's RunHooks.watch). On a terminal: a live view redrawn in place (each task's state, what it is
// doing, tokens and cost so far). Otherwise: one plain line per significant event, so logs and CI
// output stay readable.

import type { GivenSkill, GivenTool, RunEvent } from '../api/index.js';
import { describeLimits, totalTokens } from '../api/usage.js';
import type { TaskStatus } from '../core/statuses.js';
import { parseItemLabel } from '../core/sessionLabels.js';
import { groupDigits } from '../core/digits.js';

/** `worker[gather]: 5 tools (task 2, toolset:browsing 3) · skills: web_scraping (task)` */
export function describeSelection(agent: string, task: string, tools: readonly GivenTool[], skills: readonly GivenSkill[], discovery = false): string {
  const bySource = new Map<string, number>();
  for (const tool of tools) bySource.set(tool.via, (bySource.get(tool.via) ?? 0) + 1);
  const sources = [...bySource].map(([via, n]) => `${via} ${n}`).join(', ');
  const toolText = tools.length === 0 ? 'no tools' : `${tools.length} tool${tools.length === 1 ? '' : 's'} (${sources})`;
  const skillText = skills.length === 0 ? 'none' : skills.map((s) => `${s.name} (${s.via})`).join(', ');
  return `${agent}[${task}]: ${toolText}${discovery ? ' via discovery' : ''} · skills: ${skillText}`;
}

interface TaskView {
  state: TaskStatus;
  activity: string;
  /** An iterated task's items: `412/1000 ✓ 3 ✗ ETA 2m10s` instead of a line per item. */
  items?: { total: number; completed: number; failed: number; since: number; doneHere: number };
}

export class ProgressView {
  private readonly tasks = new Map<string, TaskView>();
  private tokens = 0;
  private cost = 0;
  /** The mission's budget, and the latest budget or loop-guard notice (live view). */
  private budget: string | undefined;
  private notice: string | undefined;
  /** The lengths of the lines last drawn, to move back over them (as the terminal wraps them now). */
  private drawn: number[] = [];
  private readonly onResize = (): void => this.scheduleDraw();
  /** Requests being asked at the terminal: no redraw meanwhile. */
  private held = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly started = Date.now();

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly live: boolean,
    taskNames: readonly string[],
    /** Stored states of a resumed run's tasks (a task that already completed shows as such). */
    initial: ReadonlyMap<string, string> = new Map(),
    /** What a resumed run's earlier processes spent: the counter goes on from there. */
    spentBefore: { tokens: number; cost: number } = { tokens: 0, cost: 0 },
  ) {
    this.tokens = spentBefore.tokens;
    this.cost = spentBefore.cost;
    // A terminal made narrower or wider is drawn again at its new width.
    if (live) out.on('resize', this.onResize);
    for (const name of taskNames) {
      const stored = initial.get(name);
      const state = stored !== undefined && stored in SYMBOL && stored !== 'running' ? (stored as TaskView['state']) : 'pending';
      this.tasks.set(name, { state, activity: '' });
    }
  }

  readonly sink = (event: RunEvent): void => {
    this.apply(event);
    if (this.live) this.holdForOperator(event);
    if (this.live) this.scheduleDraw();
    else {
      const line = plainLine(event);
      if (line) this.out.write(`${line}\n`);
    }
  };

  /** Final redraw; leaves the view on screen. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.live) {
      this.out.off('resize', this.onResize);
      this.draw();
    }
  }

  private apply(event: RunEvent): void {
    // An item's sessions report under `task[i]`: they belong to the task's one line.
    const label = 'task' in event && typeof event.task === 'string' ? event.task : undefined;
    const view = label === undefined ? undefined : (this.tasks.get(label) ?? this.tasks.get(parseItemLabel(label)?.task ?? ''));
    switch (event.type) {
      case 'item.started':
        if (view) view.items ??= { total: event.total, completed: 0, failed: 0, since: Date.now(), doneHere: 0 };
        break;
      case 'item.finished':
        if (view) {
          const items = (view.items ??= { total: event.total, completed: 0, failed: 0, since: Date.now(), doneHere: 0 });
          Object.assign(items, { total: event.total, completed: event.completed, failed: event.failed, doneHere: items.doneHere + 1 });
        }
        break;
      case 'task.started':
        if (view) Object.assign(view, { state: 'running', activity: 'starting' });
        break;
      case 'task.completed':
        if (view) Object.assign(view, { state: 'completed', activity: oneLine(event.summary, 70) });
        break;
      case 'task.failed':
        if (view) Object.assign(view, { state: 'failed', activity: oneLine(event.error, 70) });
        break;
      case 'task.cancelled':
        if (view) Object.assign(view, { state: 'cancelled', activity: 'cancelled' });
        break;
      case 'task.skipped':
        if (view) Object.assign(view, { state: 'skipped', activity: oneLine(event.reason, 70) });
        break;
      case 'task.retried':
        if (view) Object.assign(view, { state: 'pending', activity: `attempt ${event.attempt}, from a fresh session` });
        break;
      case 'model.turn':
        this.tokens += totalTokens(event.usage);
        this.cost += event.costUsd;
        if (view) view.activity = `${event.agent}: model turn ${event.turn}`;
        break;
      case 'tool.started':
        if (view) view.activity = `${event.agent}: ${event.tool}`;
        break;
      case 'tool.progress':
        if (view) view.activity = `${event.agent}: ${event.tool} ${progressText(event)}`;
        break;
      case 'session.started':
        if (view) view.activity = `${event.agent} started`;
        break;
      case 'budget.limits': {
        const mission = event.limits['mission'];
        this.budget = mission ? describeLimits(mission) : undefined;
        break;
      }
      case 'budget.warning':
      case 'budget.exceeded':
      case 'loop.detected':
        this.notice = event.message;
        break;
      default:
        break;
    }
  }

  /**
   * While the operator is asked at the terminal the view is not redrawn (it would overwrite the
   * prompt); it starts again below the prompt once the request is decided or waits.
   */
  private holdForOperator(event: RunEvent): void {
    if (event.type === 'operator.requested') {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.draw();
      this.held += 1;
      this.drawn = [];
    } else if ((event.type === 'operator.decided' || event.type === 'task.waiting') && this.held > 0) {
      this.held -= 1;
    }
  }

  private scheduleDraw(): void {
    if (this.timer || this.held > 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draw();
    }, 100);
  }

  private draw(): void {
    const width = terminalWidth(this.out);
    const header = `squadron · ${formatDuration(Date.now() - this.started)} · ${formatTokens(this.tokens)} tokens · $${this.cost.toFixed(4)}${this.budget ? ` (this process) · budget ${this.budget}` : ''}`;
    const lines = [header];
    if (this.notice) lines.push(`  ! ${oneLine(this.notice, 160)}`);
    const nameWidth = Math.min(20, Math.max(0, ...[...this.tasks.keys()].map((n) => n.length)));
    for (const [name, view] of this.tasks) {
      const activity = view.items && view.state === 'running' ? itemsText(view.items, Date.now()) : view.activity;
      lines.push(`  ${SYMBOL[view.state]} ${name.padEnd(nameWidth)} ${view.state.padEnd(9)} ${activity}`.trimEnd());
    }
    // Each line fits the terminal: one that wrapped would leave stale rows behind the next redraw.
    const fitted = lines.map((line) => fit(line, width));
    // Back over the rows last drawn, as the terminal shows them at its current width (a narrower
    // terminal rewraps them), then clear to the end of the screen.
    const rows = this.drawn.reduce((sum, length) => sum + Math.max(1, Math.ceil(length / width)), 0);
    let text = rows > 0 ? `\x1b[${rows}F\x1b[J` : '';
    text += fitted.join('\n') + '\n';
    this.out.write(text);
    this.drawn = fitted.map((line) => [...line].length);
  }
}

/** The terminal's columns (80 when it does not say). */
function terminalWidth(out: NodeJS.WritableStream): number {
  const columns = (out as { columns?: number }).columns;
  return columns !== undefined && columns > 0 ? columns : 80;
}

/** `line` cut to `width - 1` characters (the last column left free: some terminals wrap on it), with an ellipsis. */
function fit(line: string, width: number): string {
  const chars = [...line];
  const room = Math.max(1, width - 1);
  return chars.length <= room ? line : `${chars.slice(0, room - 1).join('')}…`;
}

const SYMBOL: Record<TaskView['state'], string> = {
  pending: '·',
  running: '▶',
  completed: '✓',
  failed: '✗',
  cancelled: '■',
  skipped: '–',
};

/** `412/1000 ✓ 3 ✗ · ETA 2m10s`: items succeeded out of all, items failed, and the time left at this process's pace. */
export function itemsText(items: { total: number; completed: number; failed: number; since: number; doneHere: number }, now: number): string {
  const done = items.completed + items.failed;
  const left = items.total - done;
  const eta = items.doneHere > 0 && left > 0 ? ` · ETA ${formatDuration(((now - items.since) / items.doneHere) * left)}` : '';
  return `${items.completed}/${items.total} ✓ ${items.failed} ✗${eta}`;
}

// An item's own sessions (`triage[17]`) report nothing line by line: a 1,000-item fan-out would
// print thousands of lines (and the writes to a pipe are synchronous). Their failures, retries and
// loop notices still show; their tool calls and sessions show in `inspect`.
const QUIET_FOR_ITEMS = new Set<RunEvent['type']>(['session.started', 'tool.finished', 'tool.progress', 'skill.loaded']);

/** An event as one line of plain progress (undefined for the events plain progress leaves out); `squadron logs` prints these. */
export function plainLine(event: RunEvent): string | undefined {
  if (QUIET_FOR_ITEMS.has(event.type) && 'task' in event && typeof event.task === 'string' && parseItemLabel(event.task) !== undefined) return undefined;
  switch (event.type) {
    case 'run.started':
      return `${event.resumed ? 'resuming' : 'running'} mission ${event.mission} (${event.runId})`;
    case 'task.started':
      return `task ${event.task}: started`;
    case 'task.completed':
      return `task ${event.task}: completed${event.route ? ` → ${event.route}` : ''}`;
    case 'task.failed':
      return `task ${event.task}: failed: ${oneLine(event.error, 200)}`;
    case 'task.cancelled':
      return `task ${event.task}: cancelled`;
    case 'task.waiting':
      return `task ${event.task}: waiting for the operator (${event.requests.join(', ')})`;
    case 'operator.requested':
      return `task ${event.task}: ${event.kind === 'approval' ? `${event.tool} needs approval` : `${event.tool} asks a question`} (${event.requestId})`;
    case 'operator.decided':
      return `task ${event.task}: ${event.requestId} ${event.status} by ${event.by}`;
    case 'task.skipped':
      return `task ${event.task}: skipped (${event.reason})`;
    case 'task.retried':
      return `task ${event.task}: failed before; attempt ${event.attempt} starts from a fresh session`;
    case 'item.finished': {
      if (event.status === 'failed') return `task ${event.task}: item ${event.index} failed: ${oneLine(event.error ?? '', 200)}`;
      // A line at every tenth of the items (and the last), not one per item.
      const done = event.completed + event.failed;
      const step = Math.max(1, Math.ceil(event.total / 10));
      return done === event.total || done % step === 0 ? `task ${event.task}: ${itemsText({ ...event, since: 0, doneHere: 0 }, 0)}` : undefined;
    }
    case 'session.started':
      if (event.agent === 'commander') return undefined;
      return `  ${describeSelection(event.agent, event.task, event.tools, event.skills, event.discovery)}${event.resumed ? ' (resumed)' : ''}`;
    case 'tool.finished':
      return `  ${event.agent}[${event.task}] ${event.tool}${event.isError ? ' (error)' : ''}${event.replayed ? ' (from ledger)' : ''}`;
    case 'tool.progress':
      return `  ${event.agent}[${event.task}] ${event.tool} ${progressText(event)}`;
    case 'model.retry':
      return `  ${event.agent}[${event.task}] model call retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)}s: ${event.reason}`;
    case 'context.cut':
      return `  ${event.agent}[${event.task}] ${cutText(event)}: messages 1–${event.keepFrom - 1} left out of its requests`;
    case 'skill.loaded':
      return `  ${event.agent}[${event.task}] loaded skill ${event.skill} (${event.how})`;
    case 'warning':
      return `warning: ${event.message}`;
    case 'budget.limits':
      return Object.entries(event.limits).map(([scope, limits]) => `budget ${scope === 'mission' ? 'of the mission' : `of task ${scope}`}: ${describeLimits(limits)}`).join('\n') || undefined;
    case 'budget.warning':
      return `warning: ${event.message}`;
    case 'budget.exceeded':
      return `stopping: ${event.message}`;
    case 'loop.detected':
      return `  ${event.agent}[${event.task}] loop guard: ${event.message}`;
    case 'mcp.tools.changed':
      return `mcp.${event.server}: tools changed (${event.tools.map((t) => t.name).join(', ') || 'none'})`;
    default:
      return undefined;
  }
}

/** `compacted (21,300 input tokens > token_limit 20,000)`: the two figures the check compared. */
function cutText(event: Extract<RunEvent, { type: 'context.cut' }>): string {
  if (event.kind === 'pruning') return 'pruned';
  const limit = event.against === 'window' ? `the ${groupDigits(event.tokenLimit)} the context window leaves` : `token_limit ${groupDigits(event.tokenLimit)}`;
  return `compacted (${groupDigits(event.inputTokens)} input tokens > ${limit})`;
}

/** `3/10 · indexing` (a fraction of a known total), `3 · indexing` otherwise. */
function progressText(event: { progress: number; total?: number; message?: string }): string {
  const amount = event.total !== undefined ? `${event.progress}/${event.total}` : String(event.progress);
  return event.message ? `${amount} · ${oneLine(event.message, 60)}` : amount;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
