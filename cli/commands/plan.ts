// `squadron plan <path>`: shows, before anything runs, what each task's commander and agents would
// be given (tools and skills with their provenance, models) and the size of their first request.

import type { Command } from 'commander';
import { scheduleLines } from '../scheduleLines.js';
import type { AgentPlan, BudgetPlan, ContextPlan, IteratorPlan, MissionPlan, RequestBytes, ToolResponsePlan } from '../../api/plan.js';
import { describeLimits } from '../../api/usage.js';
import { describeSelection } from '../progress.js';
import { collect, parseKeyValues, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, jsonDocument } from '../json.js';
import { loadProject } from '../project.js';
import { routingLines } from '../taskGraphText.js';
import { addSelectionFlags, selectionOf, type SelectionFlags } from '../selectionFlags.js';
import { groupDigits } from '../../core/digits.js';

interface PlanFlags extends SelectionFlags {
  mission?: string;
  task?: string;
  input: string[];
  var: string[];
  json?: boolean;
  showPrompt?: boolean;
}

export function register(program: Command, io: CliIo): void {
  const command = program
    .command('plan')
    .description('Show what a run would give each task (tools, skills, models, prompt sizes) without running it')
    .argument('<path>', 'an .hcl file or a directory of them')
    .option('-m, --mission <name>', 'the mission (optional when the config has one)')
    .option('-t, --task <name>', 'only this task')
    .option('-i, --input <key=value>', 'a mission input (repeatable); missing ones show as <inputs.name>', collect, [])
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .option('--json', JSON_FLAG_HELP)
    .option('--show-prompt', 'include the rendered prompts and tool definitions');
  addSelectionFlags(command).action(async (path: string, flags: PlanFlags) => {
    // The config is checked before the runtime is loaded, so a mistake is reported at once.
    // No model is called: the secrets are not needed, and a variable without a value shows as <vars.name>.
    const project = await loadProject(io, path, parseKeyValues(flags.var, '--var'), { unsetVariables: 'unknown' });
    const [{ plan: planOf }, { secretRedactor }] = await Promise.all([import('../../api/index.js'), import('../../api/secrets.js')]);
    const warnings: string[] = [];
    const plan = await planOf({
      config: project,
      ...(flags.mission ? { mission: flags.mission } : {}),
      ...(flags.task ? { task: flags.task } : {}),
      inputs: parseKeyValues(flags.input, '--input'),
      selection: selectionOf(flags),
      showPrompts: Boolean(flags.showPrompt),
      onWarning: (message) => warnings.push(message),
    });
    for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
    // Objectives already show secrets as <vars.name>; this catches one written into other text
    // (a personality, a description) or an API key, wherever it appears.
    const scheduled = project.graph.missions.find((m) => m.name === plan.mission);
    const schedules = scheduled && !flags.json ? scheduleLines(scheduled, io.env, '') : [];
    io.stdout.write(secretRedactor(project.graph).redact(flags.json ? jsonDocument({ ...plan }) : renderPlan(plan) + (schedules.length > 0 ? `\n${schedules.join('\n')}\n` : '')));
  });
}

function renderPlan(plan: MissionPlan): string {
  const out: string[] = [`mission ${plan.mission} · ${plan.tasks.length} task${plan.tasks.length === 1 ? '' : 's'}${plan.budget ? ` · budget ${budgetText(plan.budget)}` : ''}`];
  for (const task of plan.tasks) {
    out.push('', `task ${task.name}${task.depends_on.length > 0 ? ` (after ${task.depends_on.join(', ')})` : ''} · agents: ${task.work_sources.join(', ') || 'none'}`);
    if (task.iterator !== undefined) out.push(...iteratorLines(task.iterator, task.direct === true));
    for (const d of task.upstream_digests ?? []) {
      const count = d.items === null ? 'its items' : `its ${fmt(d.items)} item${d.items === 1 ? '' : 's'}`;
      out.push(`  upstream   ${d.task}: a digest of ${count} in the prompt, ${fmt(d.bytes)} bytes (at most ${fmt(d.max_bytes)}, whatever the count); the rest by query_task_output`);
    }
    const routing = routingLines(task, '             ');
    if (routing.length > 0) out.push(`  next${routing[0]!.slice(6)}`, ...routing.slice(1));
    const c = task.commander;
    if (task.budget) out.push(`  budget     ${budgetText(task.budget)} (every session of the task)`);
    if (c !== undefined) {
      out.push(`  commander  ${c.model}${reasoningText(c)} · tools: ${c.tools.join(', ')}`);
      out.push(`             first request ${bytes(c.request_bytes)}`);
      out.push(`             ${firstCallText(c.first_call)}`);
      out.push(`             ${toolResponse(c.tool_response)}`);
      out.push(`             ${contextLine(c.context)}`);
      if (c.system_prompt !== undefined) out.push(section('system prompt', c.system_prompt), section('first message', c.first_message ?? ''));
    } else {
      out.push('  direct     no commander: the worker runs the objective and finishes the task itself');
    }
    for (const agent of task.agents) out.push(...renderAgent(task.name, agent, task.direct === true));
  }
  if (plan.budget_warnings.length > 0) out.push('', ...plan.budget_warnings.map((w) => `warning: ${w}`));
  return `${out.join('\n')}\n`;
}

function iteratorLines(it: IteratorPlan, direct: boolean): string[] {
  const count = it.items === null ? 'items given at run time' : `${fmt(it.items)} item${it.items === 1 ? '' : 's'}`;
  const how =
    it.mode === 'parallel'
      ? `in parallel, ${it.concurrency_limit} at a time${it.smoketest ? ', item 0 first (smoketest)' : ''}${it.max_retries ? `, ${it.max_retries} retr${it.max_retries === 1 ? 'y' : 'ies'} per item` : ''}, on failure ${it.on_failure}`
      : 'one commander walks them with dataset_next';
  const out = [`  iterates  datasets.${it.dataset} · ${count} · ${how}`];
  if (it.shown_item === 0) out.push(`             the ${direct ? 'worker' : 'commander and agents'} below ${direct ? 'is' : 'are'} shown for item 0`);
  for (const problem of it.item_problems) out.push(`             bad item: ${problem}`);
  return out;
}

function renderAgent(task: string, a: AgentPlan, direct: boolean): string[] {
  const out = [`  ${a.name.padEnd(10)} ${a.model}${reasoningText(a)}`];
  out.push(`             ${describeSelection(a.name, task, a.tools, a.skills, a.discovery)}`);
  for (const tool of a.tools) {
    const hints = a.tool_hints[tool.ref];
    out.push(`               - ${tool.ref}  (${tool.via})${hints ? ` · ${hints.join(', ')}` : ''}${tool.approval ? ` · needs approval (${tool.approval === 'tool' ? 'its tool block' : tool.approval})` : ''}`);
  }
  if (a.preloaded_skills.length > 0) out.push(`             preloaded (mentioned in the objective): ${a.preloaded_skills.join(', ')}`);
  if (a.discovery || direct) out.push(`             first request carries ${a.first_request_tools.length} tools: ${a.first_request_tools.join(', ')}`);
  out.push(`             first request ${bytes(a.request_bytes)}${direct ? '' : " + the commander's instruction"}`);
  if (a.first_call) out.push(`             ${firstCallText(a.first_call)}`);
  out.push(`             ${toolResponse(a.tool_response)}`);
  out.push(`             ${contextLine(a.context)}`);
  for (const w of a.warnings) out.push(`             warning: ${w}`);
  if (a.system_prompt !== undefined) out.push(section(`${a.name} system prompt`, a.system_prompt));
  if (a.first_message !== undefined) out.push(section(`${a.name} first message`, a.first_message));
  return out;
}

/** `first call reserves up to 12,345 tokens · $0.0123 of the budget` */
function firstCallText(bound: { tokens: number; dollars: number }): string {
  return `first call reserves up to ${fmt(bound.tokens)} tokens${bound.dollars > 0 ? ` · $${bound.dollars.toFixed(4)}` : ''} of the budget`;
}

/** `$5 · 200,000 tokens · 45m` */
function budgetText(b: BudgetPlan): string {
  return describeLimits({ ...(b.tokens !== undefined ? { tokens: b.tokens } : {}), ...(b.dollars !== undefined ? { dollars: b.dollars } : {}), ...(b.duration_ms !== undefined ? { duration: b.duration_ms } : {}) });
}

function bytes(b: RequestBytes): string {
  const parts = [`system ${fmt(b.system)}`, `tools ${fmt(b.tools)}`];
  if (b.messages > 0) parts.push(`objective ${fmt(b.messages)}`);
  return `${fmt(b.total)} bytes (${parts.join(' · ')}) ≈ ${groupDigits(b.estimated_tokens)} tokens`;
}

function toolResponse(t: ToolResponsePlan): string {
  const via = t.via === 'default' ? 'default' : t.via === 'agent_defaults' ? 'agent_defaults' : `${t.via}'s tool_response`;
  return `tool results over ${fmt(t.max_tokens)} tokens are stored and previewed (${via})`;
}

function contextLine(c: ContextPlan): string {
  const via = (v: string, block: string): string => (v === 'default' ? 'default' : v === 'agent_defaults' ? `agent_defaults ${block}` : `${v}'s ${block}`);
  const k = c.compaction;
  const parts = [
    `context window ${fmt(c.window)} tokens (${c.window_via})`,
    `compacted above ${fmt(k.token_limit)} input tokens, last ${k.turn_retention} turns kept${k.summarize ? ', summarized by the model' : ''} (${via(k.via, 'compaction')})`,
  ];
  if (c.pruning) parts.push(`pruned at ${c.pruning.prune_on} turns to ${c.pruning.prune_to} (${via(c.pruning.via, 'pruning')})`);
  return parts.join(' · ');
}

function fmt(n: number): string {
  return groupDigits(n);
}

function section(title: string, text: string): string {
  const body = text.trimEnd().split('\n').map((l) => `    │ ${l}`).join('\n');
  return `    ┌─ ${title}\n${body}`;
}

/** ` (reasoning high: reasoning.effort high, …)`, or nothing when no effort is set. */
function reasoningText(p: { reasoning?: string; reasoning_sent?: string }): string {
  if (!p.reasoning) return '';
  return ` (reasoning ${p.reasoning}${p.reasoning_sent ? `: ${p.reasoning_sent}` : ''})`;
}
