// The head message of a cut: what the model gets in place of the messages it no longer sees. For a
// compaction (as Go's, deterministic): the task verbatim, the tools used and the earlier answers, plus
// the model's summary when `summarize = true`; for a pruning: the task verbatim and a note. The task
// is the latest instruction among the dropped messages, so a cut never loses what was asked.

import type { Part } from '../providers/types.js';
import { renderPrompt } from '../../core/promptTemplates.js';
import type { SessionMessage } from '../kernel/session.js';

/** Characters of each earlier answer the compacted head keeps (Go's figure). */
const ANSWER_CHARS = 200;
/** Earlier answers listed at most (the newest ones). */
const MAX_ANSWERS = 20;

export interface HeadExtras {
  /** The model's summary of the dropped part (`summarize = true`). */
  summary?: string | undefined;
  /** A commander's state: the agents it called and their outcomes, and what is still open. */
  state?: string | undefined;
}

export function compactedHead(dropped: readonly SessionMessage[], extras: HeadExtras = {}): Part[] {
  const { summary, state } = extras;
  const task = latestInstruction(dropped);
  const tools = new Map<string, number>();
  const answers: string[] = [];
  for (const m of dropped) {
    if (m.role !== 'assistant') continue;
    const uses = m.parts.filter((p) => p.type === 'tool_use');
    for (const use of uses) tools.set(use.name, (tools.get(use.name) ?? 0) + 1);
    if (uses.length === 0) {
      const text = textOf(m.parts);
      if (text !== '') answers.push(`- ${text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}…` : text}`);
    }
  }
  const text = renderPrompt('context', {
    compacted: true,
    lastDropped: dropped.length,
    task: task === undefined ? '' : textOf(task.parts),
    tools: [...tools].map(([name, n]) => `- ${name} (${n}×)`).join('\n'),
    answers: answers.slice(-MAX_ANSWERS).join('\n'),
    state: state ?? '',
    summary: summary?.trim() ?? '',
  });
  return [{ type: 'text', text: text.trim() }, ...nonText(task)];
}

export function prunedHead(dropped: readonly SessionMessage[]): Part[] {
  const task = latestInstruction(dropped);
  const note = renderPrompt('context', { pruned: true, lastDropped: dropped.length }).trim();
  const taskText = task === undefined ? '' : textOf(task.parts);
  return [{ type: 'text', text: taskText === '' ? note : `${taskText}\n\n${note}` }, ...nonText(task)];
}

/** The newest instruction, else the first user message (a session always opens with its task). */
function latestInstruction(messages: readonly SessionMessage[]): SessionMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.kind === 'instruction') return messages[i];
  return messages.find((m) => m.role === 'user');
}

/** Images of the task travel with it. */
function nonText(task: SessionMessage | undefined): Part[] {
  return task === undefined ? [] : task.parts.filter((p) => p.type === 'image');
}

function textOf(parts: readonly Part[]): string {
  return parts
    .filter((p): p is Extract<Part, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n')
    .trim();
}
