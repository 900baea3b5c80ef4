// Stage 5: `agent` blocks, global or inside a mission (same schema). An agent is a fixed bundle of
// model, personality, tools and skills; the name `worker` is reserved for each task's dynamic agent.

import { loadApprovalList } from './approval.js';
import type { Block } from '../hcl/ast.js';
import { diagnosticAt, type Diagnostic } from '../hcl/diagnostic.js';
import type { AgentSpec, LoopGuard, ModelRef, Reasoning, Skill } from '../graph.js';
import { LayeredMap } from '../layeredMap.js';
import { loadSkill } from './skills.js';
import { resolveModelRef, resolveNameList, resolveToolList } from '../references.js';
import { blockHeader, checkBlockName, decodeBody, locationOf, type BlockSchema } from '../schema.js';
import { loadNamedBlocks } from './namedBlocks.js';
import { scopeFor, type LoadContext, type Scope } from '../scope.js';
import { readInteger, readString, readText, secretReads, warnModelReadsSecret } from '../values.js';
import { suggestionHint } from '../suggest.js';
import type { Attribute } from '../hcl/ast.js';
import { exactList } from '../exactList.js';
import { loadToolResponse, TOOL_RESPONSE_BLOCK } from './toolResponse.js';
import { CONTEXT_BLOCKS, loadContextSettings } from './contextBlocks.js';

export const WORKER = 'worker';
export const REASONING: readonly Reasoning[] = ['low', 'medium', 'high'];

/** The runaway-guard attributes of an agent and of agent_defaults (docs/concepts/spend-control.md). */
export const LOOP_GUARD_ATTRIBUTES = { max_repeated_calls: {}, max_turns_without_progress: {} } as const;

const SCHEMA: BlockSchema = {
  attributes: { model: { required: true }, personality: { required: true }, role: {}, tools: {}, skills: {}, reasoning: {}, max_turns: {}, approval: {}, ...LOOP_GUARD_ATTRIBUTES },
  blocks: { tool_response: TOOL_RESPONSE_BLOCK, skill: { labels: ['name'] }, ...CONTEXT_BLOCKS },
};

export function loadGlobalAgents(blocks: readonly Block[], ctx: LoadContext): AgentSpec[] {
  const agents = loadNamedBlocks(blocks, 'agent', ctx, (block, name) => loadAgent(block, 'global', scopeFor(ctx, 'agent', `agent "${name}"`), ctx), {
    namespace: 'agents',
    checkName: checkAgentName,
  });
  for (const a of agents) ctx.symbols.agents.set(a.name, a);
  return agents;
}

/** Name rules for agents: the block-name pattern, and never `worker`. */
export function checkAgentName(block: Block, diags: Diagnostic[]): boolean {
  if (!checkBlockName(block, diags)) return false;
  if (block.labels[0] !== WORKER) return true;
  diags.push(
    diagnosticAt(block.labelRanges[0]!, 'error', 'SCH014', `"${WORKER}" is reserved for the dynamic agent of each task`, 'give tools to a task with tools = [...] to get a worker, or rename this agent'),
  );
  return false;
}

/**
 * Reads a reasoning effort, case-insensitively as the Go original does ("High" is "high"), and
 * refuses one set for a model known not to take it: the provider would ignore it, or reject it.
 */
export function readReasoning(attr: Attribute | undefined, model: ModelRef | undefined, scope: Scope, diags: Diagnostic[]): Reasoning | undefined {
  const raw = readString(attr, scope, diags);
  if (raw === undefined || attr === undefined) return undefined;
  const reasoning = REASONING.find((r) => r === raw.toLowerCase());
  if (reasoning === undefined) {
    diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH010', `reasoning must be one of ${REASONING.map((r) => `"${r}"`).join(', ')} (any case); got "${raw}"`, suggestionHint(raw.toLowerCase(), REASONING, (c) => `"${c}"`)));
    return undefined;
  }
  if (model?.supportsReasoning === false) diags.push(unsupportedReasoning(attr, model, reasoning));
  return reasoning;
}

/** SCH016: a reasoning effort set (not inherited) for a model that takes none. */
export function unsupportedReasoning(attr: Attribute, model: ModelRef, reasoning: Reasoning): Diagnostic {
  return model.provider === 'ollama'
    ? diagnosticAt(attr.expr.range, 'error', 'SCH016', `reasoning = "${reasoning}" cannot be sent to models.${model.block}.${model.key}: Ollama models take no reasoning effort`, 'remove reasoning (a thinking model on Ollama thinks at its own default), or use a reasoning model of another provider')
    : diagnosticAt(attr.expr.range, 'error', 'SCH016', `${model.key} does not support a reasoning effort; reasoning = "${reasoning}" cannot be sent`, 'pick a reasoning model (e.g. an OpenAI gpt-5 or o-series model, a Claude 4 model) or remove reasoning');
}

export function readLoopGuard(attr: (name: string) => Attribute | undefined, scope: Scope, diags: Diagnostic[]): LoopGuard | undefined {
  const guard: LoopGuard = {};
  // Below 2, an agent could not even retry a call once.
  const repeated = readInteger(attr('max_repeated_calls'), scope, diags, 2);
  if (repeated !== undefined) guard.maxRepeatedCalls = repeated;
  const idle = readInteger(attr('max_turns_without_progress'), scope, diags, 2);
  if (idle !== undefined) guard.maxTurnsWithoutProgress = idle;
  return Object.keys(guard).length > 0 ? guard : undefined;
}

/** One agent block; `scope.where` names it in messages. */
export function loadAgent(block: Block, kind: AgentSpec['scope'], scope: Scope, ctx: LoadContext): AgentSpec | undefined {
  const name = block.labels[0]!;
  const body = decodeBody(block.body, SCHEMA, { what: scope.where, header: blockHeader(block) }, ctx.diags);
  const role = body.attrs.get('role');
  if (role !== undefined) {
    // Deprecated and ignored in Go Squadron too.
    ctx.diags.push(diagnosticAt(role.nameRange, 'warning', 'GO004', `role in ${scope.where} is ignored (Go Squadron deprecated it)`, 'say what the agent is for in personality; remove role'));
  }
  const a = (n: string) => body.attrs.get(n);
  const modelAttr = a('model');
  const model = modelAttr === undefined ? undefined : resolveModelRef(modelAttr, scope, ctx.diags);
  const since = secretReads(scope);
  const personality = readText(a('personality'), scope, ctx.diags);
  const personalityAttr = a('personality');
  if (personalityAttr !== undefined) warnModelReadsSecret(personalityAttr, scope, since, ctx.diags, 'the personality');
  const toolsAttr = a('tools');
  const tools = toolsAttr === undefined ? [] : resolveToolList(toolsAttr, `agent:${name}`, scope, ctx.diags);
  // Go's agent-scoped `skill "n" { … }`: the agent's own, loadable by it alone (and listable in its skills).
  const own = loadAgentSkills(body.blocks.get('skill') ?? [], name, ctx);
  const skillsAttr = a('skills');
  const known = own.length === 0 ? scope.symbols.skills : new LayeredMap(new Map(own.map((s) => [s.name, s])), scope.symbols.skills);
  const listed = skillsAttr === undefined ? [] : resolveNameList(skillsAttr, 'skills', known, scope, ctx.diags);
  const skills = listed === undefined ? undefined : [...listed, ...own.filter((o) => !listed.some((l) => l.name === o.name))];
  const reasoning = readReasoning(a('reasoning'), model, scope, ctx.diags);
  const maxTurns = readInteger(a('max_turns'), scope, ctx.diags, 1);
  const toolResponse = loadToolResponse(body.blocks.get('tool_response')?.[0], scope, ctx);
  const loopGuard = readLoopGuard(a, scope, ctx.diags);
  if (model === undefined || personality === undefined || tools === undefined || skills === undefined) return undefined;
  const agent: AgentSpec = {
    name,
    scope: kind,
    model,
    personality,
    tools: ctx.toolLists.intern(tools),
    skills: exactList(skills.map((s) => ({ name: s.name, via: `agent:${name}` as const }))),
    location: locationOf(block),
  };
  if (own.length > 0) agent.ownSkills = own;
  if (reasoning !== undefined) agent.reasoning = reasoning;
  if (maxTurns !== undefined) agent.maxTurns = maxTurns;
  if (toolResponse !== undefined) agent.toolResponse = toolResponse;
  const context = loadContextSettings(body.blocks, scope, ctx);
  if (context !== undefined) agent.context = context;
  if (loopGuard !== undefined) agent.loopGuard = loopGuard;
  const approvalAttr = a('approval');
  if (approvalAttr !== undefined) agent.approval = loadApprovalList(approvalAttr, `agent:${name}`, tools, `agent "${name}"`, scope, ctx);
  return agent;
}

/** An agent's own skill blocks; one named like a global skill is an error, as in Go. */
function loadAgentSkills(blocks: readonly Block[], agent: string, ctx: LoadContext): Skill[] {
  const out: Skill[] = [];
  for (const block of blocks) {
    if (!checkBlockName(block, ctx.diags)) continue;
    const name = block.labels[0]!;
    if (ctx.symbols.skills.has(name)) {
      ctx.diags.push(diagnosticAt(block.labelRanges[0]!, 'error', 'SCH008', `agent "${agent}": its skill "${name}" has the name of a global skill`, 'rename one of them'));
      continue;
    }
    if (out.some((s) => s.name === name)) {
      ctx.diags.push(diagnosticAt(block.labelRanges[0]!, 'error', 'SCH008', `skill "${name}" is declared twice in agent "${agent}"`, 'rename one of them or remove the duplicate'));
      continue;
    }
    const skill = loadSkill(block, name, ctx);
    if (skill !== undefined) out.push(skill);
  }
  return out;
}
