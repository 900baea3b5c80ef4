import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeSelection, ProgressView } from '../../cli/progress.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

const usage = { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 300, cacheWriteTokens: 0 };

describe('describeSelection', () => {
  it('counts tools per provenance and lists skills with theirs', () => {
    const tools = [
      { ref: 'builtins.http.get', via: 'task' as const },
      { ref: 'builtins.utils.current_time', via: 'task' as const },
      { ref: 'mcp.web.fetch', via: 'toolset:browsing' as const },
      { ref: 'mcp.web.search', via: 'toolset:browsing' as const },
      { ref: 'mcp.web.crawl', via: 'toolset:browsing' as const },
    ];
    expect(describeSelection('worker', 'gather', tools, [{ name: 'web_scraping', via: 'task' }])).toBe(
      'worker[gather]: 5 tools (task 2, toolset:browsing 3) · skills: web_scraping (task)',
    );
    expect(describeSelection('worker', 't', [], [])).toBe('worker[t]: no tools · skills: none');
  });
});

describe('ProgressView', () => {
  it('prints one plain line per significant event when stderr is not a terminal', () => {
    const out = sink();
    const view = new ProgressView(out.stream, false, ['a']);
    view.sink({ type: 'task.started', task: 'a' });
    view.sink({ type: 'model.turn', task: 'a', agent: 'commander', sessionId: 's', turn: 1, model: 'm', usage, costUsd: 0.01, durationMs: 5, stopReason: 'tool_use' });
    view.sink({ type: 'task.completed', task: 'a', summary: 'all done' });
    view.close();
    expect(out.text()).toBe('task a: started\ntask a: completed\n');
  });

  it("folds an iterated task's items into a line per tenth of them, printing each failure, as plain lines", () => {
    const out = sink();
    const view = new ProgressView(out.stream, false, ['t']);
    let completed = 0;
    for (let i = 0; i < 20; i++) {
      view.sink({ type: 'session.started', task: `t[${i}]`, agent: 'worker', sessionId: `s${i}`, model: 'm', tools: [], skills: [], discovery: false, resumed: false });
      view.sink({ type: 'tool.finished', task: `t[${i}]`, agent: 'commander', sessionId: `s${i}`, callId: 'c', tool: 'task_complete', isError: false, durationMs: 1, replayed: false });
      if (i === 7) view.sink({ type: 'item.finished', task: 't', index: i, status: 'failed', error: 'refused', completed, failed: 1, total: 20 });
      else view.sink({ type: 'item.finished', task: 't', index: i, status: 'completed', completed: ++completed, failed: i > 7 ? 1 : 0, total: 20 });
    }
    view.close();
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(10); // at 2, 4, 6, the failure (8th), 10 … 20
    expect(lines[0]).toBe('task t: 2/20 ✓ 0 ✗');
    expect(lines).toContain('task t: item 7 failed: refused');
    expect(lines.at(-1)).toBe('task t: 19/20 ✓ 1 ✗');
  });

  it('shows a skipped task with its reason, in the live view and as a plain line', () => {
    const live = sink();
    const view = new ProgressView(live.stream, true, ['a', 'b']);
    view.sink({ type: 'task.completed', task: 'a', summary: 'triaged' });
    view.sink({ type: 'task.skipped', task: 'b', reason: 'not routed to by a' });
    view.close();
    expect(live.text()).toMatch(/– b\s+skipped\s+not routed to by a/);
    const plain = sink();
    const lines = new ProgressView(plain.stream, false, ['b']);
    lines.sink({ type: 'task.skipped', task: 'b', reason: 'not routed to by a' });
    expect(plain.text()).toBe('task b: skipped (not routed to by a)\n');
  });

  it('redraws a live view in place on a terminal, with states, activity, tokens and cost', async () => {
    const out = sink();
    const view = new ProgressView(out.stream, true, ['a', 'b']);
    view.sink({ type: 'task.started', task: 'a' });
    view.sink({ type: 'tool.started', task: 'a', agent: 'worker', sessionId: 's', callId: 'c', tool: 'builtins.http.get' });
    view.sink({ type: 'model.turn', task: 'a', agent: 'worker', sessionId: 's', turn: 2, model: 'm', usage, costUsd: 0.0123, durationMs: 5, stopReason: 'tool_use' });
    await new Promise((r) => setTimeout(r, 150));
    view.sink({ type: 'task.completed', task: 'a', summary: 'fetched the page' });
    view.close();
    const text = out.text();
    expect(text).toContain('1.5k tokens · $0.0123');
    expect(text).toMatch(/▶ a\s+running\s+worker: model turn 2/);
    expect(text).toMatch(/✓ a\s+completed\s+fetched the page/);
    expect(text).toMatch(/· b\s+pending/);
    expect(text).toContain('\x1b[3F\x1b[J'); // the second frame replaces the first three lines
  });
});
