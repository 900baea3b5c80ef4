// The "Commander State" section of a commander's compacted head (Go's compaction keeps one): the
// agents it called, with what and with what outcome, the output it submitted, the dataset items it
// took, and what is still open. Derived from the dropped messages alone, so the same messages always
// give the same text (the head is stored with the cut, and a resume sends it as it was).

import type { Part, ToolResultPart, ToolUsePart } from '../providers/types.js';
import { CommanderState } from '../kernel/commanderState.js';
import type { SessionMessage } from '../kernel/session.js';

/** Agent calls listed at most (the newest ones). */
const MAX_CALLS = 30;
/** Characters kept of a call's instruction and of its outcome. */
const ASK_CHARS = 160;
const OUTCOME_CHARS = 240;

/** The section's text; `tools` are the commander's tool names (does it have submit_output, dataset_next?). */
export function commanderState(dropped: readonly SessionMessage[], tools: readonly string[]): string {
  const results = new Map<string, ToolResultPart>();
  for (const m of dropped) for (const p of m.parts) if (p.type === 'tool_result') results.set(p.toolUseId, p);
  const calls: string[] = [];
  for (const m of dropped) {
    if (m.role !== 'assistant') continue;
    for (const p of m.parts) if (p.type === 'tool_use' && (p.name === 'call_agent' || p.name === 'ask_agent')) calls.push(callLine(p, results.get(p.id)));
  }
  const state = CommanderState.fromHistory(dropped);
  const lines: string[] = [];
  if (calls.length === 0) lines.push('Agents called: none yet.');
  else {
    lines.push(`Agents called (${calls.length}${calls.length > MAX_CALLS ? `, the last ${MAX_CALLS} shown` : ''}):`);
    lines.push(...calls.slice(-MAX_CALLS));
  }
  const open: string[] = [];
  if (tools.includes('dataset_next')) {
    lines.push(`Dataset items taken: ${state.itemsTaken}${state.itemsTaken > 0 ? (state.itemOutputSubmitted ? " (the current item's output is submitted)" : " (the current item's output is not submitted yet)") : ''}.`);
    if (state.itemsTaken > 0 && !state.itemOutputSubmitted) open.push("submit the current item's output");
  } else if (tools.includes('submit_output')) {
    lines.push(`Output: ${state.hasOutput ? `submitted ${clip(JSON.stringify(state.output) ?? '', OUTCOME_CHARS)}` : 'not submitted yet'}.`);
    if (!state.hasOutput) open.push('submit_output');
  }
  const failed = calls.filter((c) => c.includes(' → failed')).length;
  if (failed > 0) open.push(`${failed} agent call${failed === 1 ? '' : 's'} failed (see above)`);
  if (state.completion === undefined) open.push('task_complete');
  lines.push(`Still open: ${open.join('; ')}.`);
  return lines.join('\n');
}

function callLine(call: ToolUsePart, result: ToolResultPart | undefined): string {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const who = String(call.name === 'call_agent' ? input['name'] : input['agent_id']);
  const asked = call.name === 'ask_agent' ? input['question'] : input['task'] ?? input['response'];
  const verb = call.name === 'ask_agent' ? 'asked' : input['task'] !== undefined ? 'task' : 'response';
  return `- ${who} (${verb}: ${quote(typeof asked === 'string' ? asked : '', ASK_CHARS)}) → ${outcome(result)}`;
}

function outcome(result: ToolResultPart | undefined): string {
  if (result === undefined) return 'no answer yet';
  const text = result.content.map((c: Part | { type: string }) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const reply = parsed as { status?: unknown; answer?: unknown; error?: unknown } | undefined;
  if (reply?.status === 'answered' && typeof reply.answer === 'string') return `answered: ${quote(reply.answer, OUTCOME_CHARS)}`;
  if (reply?.status === 'failed') return `failed: ${quote(String(reply.error ?? ''), OUTCOME_CHARS)}`;
  return `${result.isError ? 'failed' : 'returned'}: ${quote(text, OUTCOME_CHARS)}`;
}

function quote(text: string, max: number): string {
  return JSON.stringify(clip(text.replace(/\s+/g, ' ').trim(), max));
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
