// `squadron validate [path]`: load the config, report every problem with its position, and on
// success print what was loaded (models, toolsets, agents, missions and their tasks' work sources).
// Exit 0 when valid (warnings allowed), 1 when invalid, 2 on a usage error. `--json` (or its older
// spelling `--format json`) prints the documented `{valid, diagnostics, summary}` contract on stdout.

import { resolve } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Option, type Command } from 'commander';
import { checkConfig, summarize, summarizeItem, summarizeMission, type McpToolLister, type MissionSummary, type WholeServers } from '../../api/validate.js';
import { countSummary, diagnosticToJson, renderDiagnostics, sourceReaderFor, type Diagnostic } from '../../api/diagnostics.js';
import type { LoadedFiles, Mission, MissionGraph } from '../../api/index.js';
import { collect, EXIT, parseKeyValues, redactOutput, shownPath, useColor, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, snakeKeys, writeJson } from '../json.js';
import { scheduleLines } from '../scheduleLines.js';
import { routingLines } from '../taskGraphText.js';

export interface ValidateOptions {
  format: 'text' | 'json';
  json?: boolean;
  var: string[];
  offline?: boolean;
}

export interface ValidateDeps {
  /** How MCP servers are asked for their tools (tests inject a fake; default: start/connect them). */
  mcpTools?: McpToolLister;
}

export function register(program: Command, io: CliIo, deps: ValidateDeps = {}): void {
  program
    .command('validate')
    .description('Check a config and report every problem with its file, line and column')
    .argument('[path]', 'a .hcl file or a directory of .hcl files', '.')
    .option('--json', JSON_FLAG_HELP)
    .addOption(new Option('--format <format>', 'output format (--format json is --json)').choices(['text', 'json']).default('text'))
    .option('--var <name=value>', 'set a variable (repeatable)', collect, [])
    .option('--offline', 'do not contact MCP servers to check mcp.<server>.<tool> references')
    .action(async (path: string, opts: ValidateOptions) => {
      io.exitCode = await validate(path, opts, io, deps);
    });
}

export async function validate(path: string, opts: ValidateOptions, io: CliIo, deps: ValidateDeps = {}): Promise<number> {
  const vars = parseKeyValues(opts.var, '--var');
  const full = resolve(io.cwd, path);
  const offline = opts.offline === true;
  const json = opts.json === true || opts.format === 'json';
  // The text summary of each mission, made as the mission loads: the loader then lets the mission
  // go (unless an MCP check needs it), so a large config's tasks are never all held at once. Kept
  // compressed until the load says whether the config is valid (a 50 MB config's summary is 26 MB
  // of text, which deflate makes 1.5 MB for about 10 ms of CPU a megabyte).
  const missionTexts: Buffer[] = [];
  const result = await checkConfig(full, {
    ...(json ? {} : { eachMission: (m: Mission) => missionTexts.push(deflateRawSync(missionText(m), { level: 1 })) }),
    vars,
    env: io.env,
    offline,
    ...(deps.mcpTools !== undefined ? { mcpTools: deps.mcpTools } : {}),
  });
  const { diagnostics } = result;
  // Secret values are masked in everything printed (a diagnostic may quote one). The redactor is
  // loaded only when a secret variable has a value — an API key written in the config is in the
  // source anyway — which keeps the runtime out of validate's start-up.
  if (result.secrets?.some((s) => s.name.startsWith('vars.'))) redactOutput(io, (await import('../../api/secrets.js')).outputMask(result.secrets));
  const readSource = sourceReaderFor(result.sources);
  if (json) {
    const summary = result.graph !== undefined ? summarize(result.graph) : null;
    const files = result.loaded && { root: shownPath(io.cwd, result.loaded.root), loaded: result.loaded.files, skipped: result.loaded.skipped };
    writeJson(io, { valid: result.graph !== undefined, diagnostics: snakeKeys(diagnostics.map((d) => diagnosticToJson(d, io.cwd))), summary: snakeKeys(summary), ...(files ? { files } : {}) });
  } else {
    await writeText(diagnostics, result.graph, missionTexts, io, readSource, result.loaded);
  }
  return result.graph !== undefined ? EXIT.ok : EXIT.failure;
}

async function writeText(
  diagnostics: readonly Diagnostic[],
  graph: MissionGraph | undefined,
  missionTexts: Buffer[],
  io: CliIo,
  readSource: (file: string) => string | undefined,
  loaded: LoadedFiles | undefined,
): Promise<void> {
  if (diagnostics.length > 0) {
    io.stderr.write(`${renderDiagnostics(diagnostics, { cwd: io.cwd, color: useColor(io, 'stderr'), readSource })}\n\n`);
  }
  const from = loaded === undefined ? '' : `${loadedLine(loaded, io.cwd)}\n`;
  if (graph === undefined) {
    io.stderr.write(`${from}config is invalid: ${countSummary(diagnostics)}\n`);
    return;
  }
  const warnings = diagnostics.length > 0 ? ` (${countSummary(diagnostics)})` : '';
  await writeSummary(graph, missionTexts, io.stdout, from, `config is valid${warnings}\n`);
}

const SKIPPED_SHOWN = 6;

/** "3 files loaded from examples/x (skipped: .git, node_modules, fixtures by .squadronignore)". */
function loadedLine(loaded: LoadedFiles, cwd: string): string {
  const skipped = loaded.skipped.map((s) => (s.reason === 'squadronignore' ? `${s.path} by .squadronignore` : s.path));
  const shown = skipped.length > SKIPPED_SHOWN ? [...skipped.slice(0, SKIPPED_SHOWN), `… ${skipped.length - SKIPPED_SHOWN} more`] : skipped;
  const tail = shown.length > 0 ? ` (skipped: ${shown.join(', ')})` : '';
  return `${plural(loaded.files, 'file')} loaded from ${shownPath(cwd, loaded.root)}${tail}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 tools", or "mcp.shop.all" / "2 tools + mcp.shop.all" when whole MCP servers are granted (not listed here). */
function toolCount(s: { tools: number } & WholeServers): string {
  const all = (s.mcpAll ?? []).map((name) => `mcp.${name}.all`);
  const rest = s.tools - all.length;
  return [...(rest > 0 || all.length === 0 ? [plural(rest, 'tool')] : []), ...all].join(' + ');
}

/** Appends text to what is being written, with how many lines it ends. */
type AddText = (text: string, lines: number) => Promise<void>;

/**
 * The success summary's first lines: one line per kind of block (models, tools, …), written an
 * item at a time: a large config's tools, toolsets and agents are not all summarised at once.
 */
async function writeRows(graph: MissionGraph, add: AddText): Promise<void> {
  const row = async <T, S>(label: string, items: readonly T[], summarize: (item: T) => S, show: (s: S) => string): Promise<void> => {
    if (items.length === 0) return;
    await add(`${label.padEnd(10)} `, 0);
    for (let i = 0; i < items.length; i++) await add(`${i > 0 ? ', ' : ''}${show(summarize(items[i]!))}`, 0);
    await add('\n', 1);
  };
  await row('models', graph.models, summarizeItem.model, (m) => `${m.name} (${m.provider}${m.api ? `, ${m.api.replace('_', ' ')} API` : ''}${m.apiKey || m.provider === 'replay' || m.provider === 'ollama' ? '' : ', no api_key'})`);
  await row('tools', graph.customTools, summarizeItem.customTool, (t) => `${t.name} (${t.implements})`);
  await row('mcp', graph.mcpServers, summarizeItem.mcpServer, (m) => `${m.name} (${m.transport}${m.needsVariables ? `, needs ${m.needsVariables.map((n) => `vars.${n}`).join(', ')}` : ''})`);
  await row('toolsets', graph.toolsets, summarizeItem.toolset, (t) => `${t.name} (${toolCount(t)})`);
  await row('skills', graph.skills, summarizeItem.skill, (k) => k.name);
  await row('agents', graph.agents, summarizeItem.agent, (a) => `${a.name} (${a.model}, ${toolCount(a)})`);
}

/** A mission's lines in the success summary, each ending in a newline, as one flat string. */
function missionText(m: Mission): string {
  return `${[...missionLines(summarizeMission(m)), ...scheduleLines(m, process.env)].join('\n')}\n`;
}

/** A mission's lines in the success summary: its commander, then each task with its work sources. */
function missionLines(m: MissionSummary): string[] {
  const lines = [`mission ${m.name}: commander ${m.commander}, ${plural(m.tasks.length, 'task')}, max_parallel ${m.maxParallel}`];
  const width = m.tasks.reduce((w, t) => Math.max(w, t.name.length), 4);
  for (const t of m.tasks) {
    const sources: string[] = [];
    if (t.worker !== null) sources.push(`${t.direct ? 'direct: worker alone' : 'worker'} (${toolCount(t.worker)}, ${t.worker.model})`);
    if (t.agents.length > 0) sources.push(`agents ${t.agents.join(', ')}${t.agentsVia === 'mission' ? ' (from the mission)' : ''}`);
    const deps = t.dependsOn.length > 0 ? `  after ${t.dependsOn.join(', ')}` : '';
    const each = t.iterator ? `  for each item of datasets.${t.iterator.dataset} (${t.iterator.parallel ? 'parallel' : 'sequential'})` : '';
    lines.push(`  ${t.name.padEnd(width)}  ${sources.join(' + ')}${deps}${each}`);
    lines.push(...routingLines({ routes: t.routes, send_to: t.sendTo }, `  ${' '.repeat(width)}  `));
  }
  return lines;
}

/**
 * Text waiting to be written is flushed in pieces of about this many characters: small enough
 * that each piece and its copies (masked, encoded) stay out of V8's large-object space, where
 * garbage is only reclaimed by a full collection.
 */
const FLUSH_AT = 1 << 15;

const EMPTY = Buffer.alloc(0);

/**
 * Writes the success summary, one mission at a time, as fast as `out` takes it: a large config's
 * summary is tens of megabytes of text, never held whole (the missions' texts, deflated, are
 * inflated and let go one at a time as they are written; a graph's missions are summarised one by
 * one, never their summary objects at once).
 */
async function writeSummary(graph: MissionGraph, missionTexts: Buffer[], out: NodeJS.WritableStream, head: string, tail: string): Promise<void> {
  let pending = head;
  let lines = 0;
  const add: AddText = async (text, more) => {
    pending += text;
    lines += more;
    if (pending.length >= FLUSH_AT) {
      const ready = out.write(pending);
      pending = '';
      // A pipe takes only what its reader has read so far: without waiting, the rest of the
      // summary (tens of megabytes for a large config) would queue in memory, all of it.
      if (!ready) await drained(out);
    }
  };
  await writeRows(graph, add);
  // Missions the loader handed over as they loaded (then the graph has none), else the graph's.
  for (let i = 0; i < missionTexts.length; i++) {
    const text = inflateRawSync(missionTexts[i]!).toString('utf8');
    missionTexts[i] = EMPTY;
    await add(text, 1);
  }
  for (const m of graph.missions) {
    const mission = missionLines(summarizeMission(m));
    await add(`${mission.join('\n')}\n`, mission.length);
  }
  // As `lines.join('\n')` printed it: a summary of no lines still leaves its empty line.
  out.write(`${pending}${lines === 0 ? '\n' : ''}${tail}`);
}

/** When `out` takes more, or never will (closed, failed: the rest of the output is lost anyway). */
function drained(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      for (const event of ['drain', 'close', 'error']) out.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) out.once(event, done);
  });
}
