// loadConfig: HCL files in, MissionGraph out. Runs the stages in order — variables → models →
// tools/mcp/toolsets → skills → agents → missions — each seeing only the namespaces resolved
// before it, collects every problem from every file, and returns the graph (deep-frozen) only
// when there is no error.

import type { Attribute, Block, File } from './hcl/ast.js';
import { diagnosticAt, hasErrors, type Diagnostic, type Range } from './hcl/diagnostic.js';
import type { HclFunction } from './hcl/value.js';
import { stdlibFunctions } from './hcl/stdlib.js';
import { dropSyntaxCascades } from './syntaxCascade.js';
import { capDiagnostics, sortDiagnostics } from './diagnostics.js';
import { discoverFiles, parseFiles, type SkippedPath } from './files.js';
import type { Mission, MissionGraph } from './graph.js';
import { derivedSecrets, secretValues, type NamedSecret } from './secrets.js';
import { loadAllowedHosts } from './stages/allowedHosts.js';
import { makeLoadFunction } from './loadFunction.js';
import { checkModelUses } from './modelUsage.js';
import { toolNameCollisions } from './toolNameCollisions.js';
import { checkLabels } from './schema.js';
import { emptySymbols, type LoadContext } from './scope.js';
import { loadGlobalAgents } from './stages/agents.js';
import { loadMissions } from './stages/missions.js';
import { loadMemories, loadPackets } from './stages/memory.js';
import { outsidePackets } from './packetFiles.js';
import { loadTelemetry } from './stages/telemetry.js';
import { loadStorage } from './stages/storage.js';
import { checkMcpHost } from './stages/mcpHost.js';
import { goNameHint } from './goNames.js';
import { loadPlugins } from './stages/plugins.js';
import { openProjectVault } from './vault/projectVault.js';
import { checkVaultBlocks } from './vault/vaultBlock.js';
import { loadModels } from './stages/models.js';
import { loadSkills } from './stages/skills.js';
import { loadToolStage } from './stages/tools.js';
import { loadVariables } from './stages/variables.js';
import { suggestionHint } from './suggest.js';
import { ListInterner, SameFieldsInterner } from './exactList.js';

export interface LoadOptions {
  /** `--var name=value` pairs; they win over SQUADRON_VAR_<name> and defaults. */
  vars?: Readonly<Record<string, string>>;
  /** Where SQUADRON_VAR_<name> is read from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** `YYYY-MM-DD` to judge model end-of-life dates against (default: today, UTC). */
  today?: string;
  /**
   * A variable used without a value: `error` (REF007 at each use; what run and resume need) or
   * `unknown` (validate, plan, tools: its value is unknown, what depends on it goes unchecked, and
   * one REF007 warning per variable says so), so a config can be checked where its secrets are not.
   */
  unsetVariables?: 'error' | 'unknown';
  /**
   * Handed each mission once it is loaded and checked (deep-frozen, in order), which the graph then
   * does not keep (its `missions` is empty), so a large config's tasks are never all held at once:
   * validate summarises a mission and lets it go. Ignored when the config declares an `mcp` server,
   * whose check after loading (validateProject) reads every mission's tools: the graph keeps them.
   */
  eachMission?: (mission: Mission) => void;
}

export interface LoadResult {
  /** Present exactly when there is no error (warnings allowed). Deep-frozen. */
  graph?: MissionGraph;
  /** Every problem in every file, sorted by file and position. */
  diagnostics: Diagnostic[];
  /**
   * The text of every file the load read (the .hcl files, SKILL.md files, load()ed files), by absolute path, so
   * diagnostics can be rendered without reading the files again:
   * `renderDiagnostics(diags, { cwd, color, readSource: sourceReaderFor(result.sources) })`.
   * Always set by loadConfig; optional so results assembled elsewhere need not carry it.
   */
  sources?: ReadonlyMap<string, string>;
  /** Where the files came from: the root, how many .hcl files were loaded, and what a folder walk skipped. */
  loaded?: LoadedFiles;
  /**
   * The secret values this load was given (secret variables, API keys), also when it failed, so the
   * CLI can mask them in everything it prints, diagnostics included. Set by loadConfig.
   */
  secrets?: NamedSecret[];
}

export interface LoadedFiles {
  root: string;
  files: number;
  skipped: readonly SkippedPath[];
}

const TOP_LEVEL_BLOCKS = ['variable', 'plugin', 'model', 'tool', 'mcp', 'toolset', 'skill', 'agent', 'memory', 'packet', 'mission'] as const;
type TopLevelType = (typeof TOP_LEVEL_BLOCKS)[number];

/** Blocks of the Go original that Squadron does not have, with what to do instead. */
const NOT_SUPPORTED: Readonly<Record<string, string>> = {
  commander: 'commander is a block inside a mission',
  task: 'task blocks belong inside a mission block',
};

/** Go Squadron blocks accepted and ignored (a warning says what Squadron does instead). */
const GO_ONLY_BLOCKS: Readonly<Record<string, string>> = {
  gateway: 'Squadron has no chat gateways: use `squadron serve` (HTTP API, webhooks, schedules) to reach missions from elsewhere',
  command_center: 'Squadron has no command center connection: `squadron serve` gives the HTTP API and live events on this machine',
};

const GO_REQUIRED: Readonly<Record<string, readonly string[]>> = { command_center: ['url', 'instance_name'] };

interface TopLevel {
  blocks: Record<TopLevelType, Block[]>;
  skillsDirs: Attribute[];
  /** `telemetry { … }`: unlabeled, at most one (config/stages/telemetry.ts). */
  telemetry: Block[];
  allowedHosts: Attribute[];
  /** The Go original's `storage { … }`: unlabeled, at most one (config/stages/storage.ts). */
  storage: Block[];
  /** `vault { provider }` (Go's; config/vault/vaultBlock.ts). */
  vault: Block[];
  /** Go's `mcp_host { … }`: checked and noted (config/stages/mcpHost.ts). */
  mcpHost: Block[];
}

interface ReadFiles {
  top: TopLevel;
  /** The text of every file, by path (see LoadResult.sources). */
  sources: Map<string, string>;
  /**
   * The files with a syntax error, which dropSyntaxCascades reads again after the stages (the
   * parser holds such a file's tree whole anyway). The others are not kept: their top-level blocks
   * are held only by `top` until their stage takes them.
   */
  syntaxErrorFiles: Map<string, File>;
  firstFile?: string;
}

/** Parses the files and sorts their top-level items by type; problems go to `diags`. */
function readTopLevel(paths: readonly string[], diags: Diagnostic[], projectRoot: string): ReadFiles {
  const all = parseFiles(paths);
  // The .hcl files in a packet's folder are the packet's, not config (as in Go): dropped with their errors.
  // (A file that could not be read as HCL at all, not UTF-8 say, is dropped with its error too when it is a packet's.)
  const isConfig = outsidePackets(all.files, projectRoot);
  const parsed = { files: new Map([...all.files].filter(([f]) => isConfig(f))), diagnostics: all.diagnostics.filter((d) => isConfig(d.file)) };
  diags.push(...parsed.diagnostics);
  const sources = new Map<string, string>();
  for (const [file, parsedFile] of parsed.files) sources.set(file, parsedFile.source);
  const withErrors = new Set(parsed.diagnostics.map((d) => d.file));
  const syntaxErrorFiles = new Map([...parsed.files].filter(([file]) => withErrors.has(file)));
  const read: ReadFiles = { top: collectTopLevel(parsed.files, diags), sources, syntaxErrorFiles };
  const first = parsed.files.keys().next();
  if (first.done !== true) read.firstFile = first.value;
  return read;
}

function collectTopLevel(files: ReadonlyMap<string, File>, diags: Diagnostic[]): TopLevel {
  const blocks = Object.fromEntries(TOP_LEVEL_BLOCKS.map((t) => [t, [] as Block[]])) as Record<TopLevelType, Block[]>;
  const skillsDirs: Attribute[] = [];
  const telemetry: Block[] = [];
  const allowedHosts: Attribute[] = [];
  const storage: Block[] = [];
  const vault: Block[] = [];
  const mcpHost: Block[] = [];
  for (const file of files.values()) {
    for (const attr of file.body.attributes) {
      if (attr.name === 'skills_dir') skillsDirs.push(attr);
      else if (attr.name === 'allowed_hosts') allowedHosts.push(attr);
      else {
        const hint = (TOP_LEVEL_BLOCKS as readonly string[]).includes(attr.name) ? `${attr.name} is a block: write ${attr.name} "name" { … }` : suggestionHint(attr.name, ['skills_dir', 'allowed_hosts']);
        diags.push(diagnosticAt(attr.nameRange, 'error', 'SCH001', `unknown top-level attribute "${attr.name}"`, hint ?? 'the top-level attributes are skills_dir and allowed_hosts'));
      }
    }
    for (const block of file.body.blocks) {
      if (block.type === 'telemetry') {
        telemetry.push(block);
        continue;
      }
      if (block.type === 'storage') {
        storage.push(block);
        continue;
      }
      const goOnly = GO_ONLY_BLOCKS[block.type];
      if (goOnly !== undefined) {
        diags.push(diagnosticAt(block.typeRange, 'warning', 'GO002', `the ${block.type} block of Go Squadron is ignored here`, goOnly));
        // Go requires these; a config Go rejects stays rejected here.
        for (const name of GO_REQUIRED[block.type] ?? []) {
          if (!block.body.attributes.some((a) => a.name === name)) diags.push(diagnosticAt(block.typeRange, 'error', 'GO003', `${block.type} needs ${name}`, `add ${name} = "…" (Go Squadron requires it), or remove the block`));
        }
        continue;
      }
      if (block.type === 'vault') {
        vault.push(block);
        continue;
      }
      if (block.type === 'mcp_host') {
        mcpHost.push(block);
        continue;
      }
      if (!(TOP_LEVEL_BLOCKS as readonly string[]).includes(block.type)) {
        const hint = NOT_SUPPORTED[block.type] ?? goNameHint(block.type) ?? suggestionHint(block.type, [...TOP_LEVEL_BLOCKS, 'telemetry']);
        diags.push(diagnosticAt(block.typeRange, 'error', 'SCH002', `unknown block "${block.type}"`, hint));
        continue;
      }
      if (!checkLabels(block, ['name'], diags)) continue;
      blocks[block.type as TopLevelType].push(block);
    }
  }
  return { blocks, skillsDirs, telemetry, allowedHosts, storage, vault, mcpHost };
}

/** One warning per variable used without a value (unsetVariables: 'unknown'), at its first use. */
function reportUnsetVariables(uses: ReadonlyMap<string, readonly Range[]>, diags: Diagnostic[]): void {
  for (const [name, ranges] of uses) {
    const where = ranges.length === 1 ? 'the value that uses it is' : `the ${ranges.length} values that use it are`;
    diags.push(
      diagnosticAt(
        ranges[0]!,
        'warning',
        'REF007',
        `variable "${name}" has no value, so ${where} not checked; run needs one: pass --var ${name}=… or set SQUADRON_VAR_${name}`,
        'the rest of the config is checked without it',
      ),
    );
  }
}

export function loadConfig(path: string, opts: LoadOptions = {}): LoadResult {
  const found = discoverFiles(path);
  const loaded: LoadedFiles = { root: found.projectRoot, files: found.files.length, skipped: found.skipped };
  if (found.files.length === 0) return { diagnostics: found.diagnostics, sources: new Map(), loaded };
  const diags: Diagnostic[] = [...found.diagnostics];
  const { top, sources, syntaxErrorFiles, firstFile } = readTopLevel(found.files, diags, found.projectRoot);
  const declaresMission = top.blocks.mission.length > 0;
  const eachMission = top.blocks.mcp.length === 0 && top.blocks.plugin.length === 0 ? opts.eachMission : undefined;
  /** A stage's blocks, no longer held here: each block is garbage once its stage has read it. */
  const take = (type: TopLevelType): Block[] => {
    const blocks = top.blocks[type];
    top.blocks[type] = [];
    return blocks;
  };
  const std = stdlibFunctions as Readonly<Record<string, HclFunction>>;
  const ctx: LoadContext = {
    projectRoot: found.projectRoot,
    diags,
    symbols: emptySymbols(opts.unsetVariables),
    loadFunctions: { ...std, load: makeLoadFunction(found.projectRoot, diags, sources) },
    runtimeFunctions: std,
    toolLists: new ListInterner(),
    workers: new SameFieldsInterner((w) => w.tools),
    sources,
  };

  checkVaultBlocks(top.vault, ctx);
  const vault = openProjectVault(found.projectRoot, opts.env ?? process.env, opts.unsetVariables === 'unknown', diags);
  const variables = loadVariables(take('variable'), ctx, opts.vars ?? {}, opts.env ?? process.env, vault);
  const allowedHosts = loadAllowedHosts(top.allowedHosts, ctx);
  const plugins = loadPlugins(take('plugin'), ctx);
  const models = loadModels(take('model'), ctx);
  const telemetry = loadTelemetry(top.telemetry, ctx);
  const storage = loadStorage(top.storage, ctx);
  checkMcpHost(top.mcpHost, ctx);
  const tools = loadToolStage(take('mcp'), take('tool'), take('toolset'), ctx);
  const skills = loadSkills(take('skill'), top.skillsDirs, ctx);
  const agents = loadGlobalAgents(take('agent'), ctx);
  const memories = loadMemories(take('memory'), top.blocks.mission, ctx);
  const packets = loadPackets(take('packet'), ctx);
  let missions: Mission[];
  if (eachMission === undefined) {
    missions = loadMissions(take('mission'), ctx);
    diags.push(...toolNameCollisions({ agents, missions, skills, mcpToolRefs: ctx.symbols.mcpUses }));
  } else {
    // Checked a mission at a time, then the global agents, as the whole graph is checked above.
    // Without mcp servers there are no mcp references, whose positions would need every mission.
    const seen = new Set<string>();
    missions = loadMissions(take('mission'), ctx, (mission) => {
      diags.push(...toolNameCollisions({ agents: [], missions: [mission], skills }, undefined, false, seen));
      eachMission(deepFreeze(mission));
    });
    diags.push(...toolNameCollisions({ agents, missions: [], skills }, undefined, false, seen));
  }
  reportUnsetVariables(ctx.symbols.unsetUses, diags);
  checkModelUses(ctx.symbols.modelUses, ctx.symbols.models, opts.today ?? new Date().toISOString().slice(0, 10), diags);
  if (!declaresMission && firstFile !== undefined && !hasErrors(diags)) {
    diags.push({
      severity: 'warning',
      code: 'GRA012',
      message: 'no mission is declared',
      hint: 'add a mission "name" { … } block to have something to run',
      file: firstFile,
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
    });
  }

  const diagnostics = capDiagnostics(dropSyntaxCascades(sortDiagnostics(diags), syntaxErrorFiles));
  const derived = derivedSecrets(ctx.symbols.sensitive, variables);
  const secrets = secretValues(variables, models, derived);
  if (hasErrors(diagnostics)) return { diagnostics, sources, loaded, secrets };
  const graph: MissionGraph = {
    projectRoot: found.projectRoot,
    files: found.files,
    variables,
    models,
    customTools: tools.customTools,
    mcpServers: tools.mcpServers,
    toolsets: tools.toolsets,
    skills,
    agents,
    missions,
    mcpToolRefs: ctx.symbols.mcpUses,
    mcpPromptRefs: ctx.symbols.mcpPromptUses,
    ...(plugins.length > 0 ? { plugins, pluginToolRefs: ctx.symbols.pluginUses } : {}),
    ...(telemetry ? { telemetry } : {}),
    allowedHosts,
    ...(storage ? { storage } : {}),
    ...(memories.length > 0 ? { memories } : {}),
    ...(packets.length > 0 ? { packets } : {}),
    ...(derived.length > 0 ? { derivedSecrets: derived } : {}),
  };
  return { graph: deepFreeze(graph), diagnostics, sources, loaded, secrets };
}

/** Freezes an object graph in place (shared nodes once); the runtime cannot mutate its input. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop()!;
    Object.freeze(v);
    // for…in instead of Object.keys: the graph of a large config has tens of thousands of objects
    // (every AST range), and one key array each was most of this function's cost. The graph holds
    // plain objects and arrays, and tasks and custom tools whose getters live on their class, not
    // enumerable: there are no inherited enumerable keys to pick up.
    for (const key in v) {
      const child = (v as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) stack.push(child);
    }
  }
  return value;
}
