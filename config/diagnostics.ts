// The diagnostic code registry (every stable code with a one-line description) and the two
// renderings the CLI uses: text (`file:line:col: error[CODE]: message`, the source line, a caret
// underline, the hint) and JSON (the same fields, paths relative to the working directory).

import { isAbsolute, relative } from 'node:path';
import { CODE_TABLE } from './hcl/codes.js';
import type { Diagnostic } from './hcl/diagnostic.js';
import { SKILL_CODES } from './skillCodes.js';
import { readTextFile } from './textFile.js';

export type { Diagnostic, RelatedLocation, Severity } from './hcl/diagnostic.js';

/**
 * The loader's own codes (schema, references, graph, models, files, the MCP check), with what they
 * mean. Codes are stable: tools and tests key on them. The HCL parser's and evaluator's SYN/EVAL
 * codes live in `config/hcl/codes.ts` (CODE_TABLE) and the skill folders' SKL codes in
 * `config/skillCodes.ts`; describeCode looks in all three, and docs/diagnostics.md lists them all.
 */
export const DIAGNOSTIC_CODES: Readonly<Record<string, string>> = {
  // Schema: the shape of blocks and values.
  SCH001: 'Unknown attribute in a block.',
  SCH002: 'Unknown block type.',
  SCH003: 'A required attribute is missing.',
  SCH004: 'A required block is missing.',
  SCH005: 'A block appears more times than allowed.',
  SCH006: 'A block has the wrong number of labels.',
  SCH007: 'A value has the wrong type.',
  SCH008: 'A name is declared twice.',
  SCH009: 'A block name does not match `^[a-z_][a-z0-9_]*$`.',
  SCH010: 'A value is not one of the allowed values.',
  SCH012: 'Attributes or blocks that exclude each other are used together.',
  SCH013: 'A number is out of range or not a whole number.',
  SCH014: 'A reserved name is used.',
  SCH015: 'A secret variable has a default value.',
  SCH016: 'reasoning is set for a model that does not take it (an OpenAI or Claude model without reasoning, any Ollama model).',
  SCH017: 'A field schema (string(), list(), …) is malformed.',
  SCH018: 'A secret variable\'s value is shorter than 4 characters: it could not be redacted, so it is refused.',
  // References: traversals in reference positions and inside expressions.
  REF001: 'An expression names something that is not a namespace.',
  REF002: 'A namespace cannot be referenced from this block (it is resolved later, or not at all here).',
  REF003: 'A reference names something that is not declared.',
  REF004: 'A quoted string is used where a reference is expected.',
  REF005: 'A reference of the wrong kind (e.g. a skill where a tool is expected).',
  REF006: 'A reference has the wrong shape (too few or too many parts, an index).',
  REF007: 'A declared variable is used but has no value (an error for run and resume; a warning for validate, plan and tools, which need no secret).',
  REF008: 'A toolset references another toolset.',
  REF009: 'A model key is not offered by the model block.',
  REF010: 'A custom tool implements something other than builtins.http.*.',
  REF011: 'An always_load tool is not among the task\'s tools.',
  REF012: 'An objective references something other than inputs and vars.',
  REF013: 'A --var names a variable that is not declared.',
  REF014: 'A custom tool field references something other than its inputs and the variables.',
  REF015: 'Two tools given to one agent have the same API name (the name the model calls), e.g. mcp.x.a_b and mcp.x_a.b.',
  REF016: 'An approval list names a tool that the task (its worker or agents) or the agent does not hold.',
  REF017: "An objective or an agent's personality reads a secret variable (or a value computed from one): the model is sent it, while everything stored and printed holds a placeholder (warning).",
  // Graph: mission structure and work assignment.
  GRA001: 'A mission has no tasks.',
  GRA002: 'A task has no work source (no tools, no task agents, no mission agents).',
  GRA003: 'A task depends on, routes to or sends to itself.',
  GRA004: 'Tasks form a dependency cycle (depends_on, router and send_to edges).',
  GRA005: 'A task has both a router and send_to.',
  GRA006: 'A target or dependency is listed twice.',
  GRA007: 'A task activated by a router or send_to also has depends_on.',
  GRA008: 'No task can start (every task waits for another or for a router/send_to).',
  GRA009: 'A worker setting (model, reasoning, skills, discovery…) on a task without tools has no effect (warning).',
  GRA010: 'A task depends on a task that only runs when a router or send_to activates it.',
  GRA011: 'An agent declared inside a mission is never used (warning).',
  GRA012: 'No mission is declared (warning).',
  GRA013: 'A direct task (direct = true) has declared agents, which only a commander can call.',
  GRA014: 'A direct task declares no tools, so it has no worker to run it.',
  // Datasets and iterated tasks.
  ITR001: 'A dataset filled at run time (neither items nor bind_to) that no task or agent of its mission can fill (warning).',
  ITR002: 'A dataset\'s bind_to names an input that is not of type list.',
  ITR003: 'A dataset item does not match the dataset\'s schema (each bad item is reported with its index).',
  ITR004: 'An iterator setting that only a parallel iterator has (concurrency_limit, start_delay, smoketest, on_failure) is set on a sequential one.',
  ITR005: 'An objective uses item or item_index where there is no item: a task without an iterator, or a sequential iterator.',
  ITR006: 'A task that iterates in parallel has a router.',
  ITR007: 'A dataset is declared but no task iterates over it (warning).',
  ITR008: 'max_retries on a sequential iterator has no effect (warning).',
  ITR009: 'A direct task iterates sequentially (a dataset walked with dataset_next needs a commander).',
  // Models: what the provider says about a referenced model.
  MOD001: 'A referenced model is deprecated: the warning gives its end-of-life date and a replacement (warning).',
  MOD002: 'A referenced model is past its end-of-life date (a warning when the block has a base_url).',
  MOD003: 'A referenced model has no pricing: its cost counts as 0 (warning).',
  MOD004: 'A dollar budget covers a model without pricing: its calls count as $0 against it (warning, at the budget).',
  MOD005: 'The context window of a referenced Ollama model is unknown: the default is assumed until the block sets context_window (warning).',
  MOD006: "A budget is smaller than what one call of a model it covers reserves — at least the call's `max_output_tokens` (default 8,192), priced at the output rate — so the run stops before that call (warning, at the budget; `squadron plan` shows each task's first call in full).",
  // Files and paths.
  // Test files (*.sqtest.hcl) of squadron test, checked against the config.
  TST001: 'A test run names a mission the config does not declare.',
  TST002: 'An assertion reads a field of run (or of run.tasks.<task>) that a test cannot read.',
  TST003: 'A test names a task the mission does not have (in run.tasks.<task> or expect_failures).',
  TST004: 'trials or pass_at is set on a run that is not live (a replay gives the same answer every time).',
  TST005: 'An assertion reads something other than run.',
  TST006: 'A test run gives an input the mission does not declare.',
  FIL001: 'A path does not exist.',
  FIL002: 'A path leaves the project root.',
  FIL003: 'load() can only read .md and .txt files.',
  FIL004: 'A file could not be read, or is not a regular file.',
  FIL005: 'No .hcl files were found.',
  FIL006: 'An absolute path is used where a relative one is required.',
  FIL007: 'A replay cassette does not exist yet (warning).',
  FIL008: 'A file is not UTF-8 text (a .hcl file is skipped; load() fails).',
  FIL009: 'A file is too large for load() (at most 1 MiB).',
  FIL010: 'A .squadronignore line uses syntax that is not supported (warning; the line is skipped).',
  FIL011: 'A file has more problems than are listed: the first 50 are shown, then this one counts the rest.',
  // MCP server check (squadron validate without --offline).
  MCP001: 'An mcp.<server>.<tool> reference names a tool the server does not offer.',
  MCP002: 'An MCP server could not be contacted to list its tools.',
  MCP003: 'An MCP tool only runs as an MCP task (`execution.taskSupport = "required"`), which Squadron does not support: it is left out (warning).',
  PLG001: 'A plugin takes a reserved name (http, dataset, utils, human, mcp).',
  PLG002: 'A plugin block\'s source or version is malformed (a local source needs version = "local"; a version is "local" or semantic).',
  PLG003: 'A plugins.<plugin>.<tool> reference names a tool the plugin does not offer (validate starts the plugin to ask).',
  PLG004: 'A plugin could not be started to list its tools (an error; a warning with validate --offline, which starts none).',
  VLT001: 'The project\'s vault (.squadron/vars.vault) cannot be opened: no key, a wrong key or a damaged file (an error for run; a warning for validate and plan).',
  VLT002: 'A vault value is too short to be redacted, so it is not treated as a secret (warning).',
  VLT003: 'A vault block asks for the keychain provider, which is not supported: the key comes from SQUADRON_VAULT_KEY or vault.key (warning).',
  MCP004: 'An mcp.<server>.prompts.<prompt> skill reference names a prompt the server does not offer (checked by validate when it contacts the server).',
  // Go Squadron configs (docs/concepts/migrate-from-go.md).
  GO001: 'A storage block with backend = "postgres" has no conn_string.',
  GO002: 'A block of a migrated config that has no counterpart here (gateway, command_center) is ignored (warning).',
  GO003: 'An ignored Go block lacks an attribute Go requires (command_center without url or instance_name).',
  GO004: 'An agent sets role, which was deprecated and ignored before: ignored here too (warning).',
  GO005: "A protected input (of a migrated config) is left out of the mission's inputs: the model never sees it (warning).",
  GO006: 'A protected input has no value, or value is set on an input that is not protected.',
  GO007: "A mission's secret block (of a migrated config) is ignored, as it always was (warning).",
  GO008: "An mcp block's source is a github.com repository, which is not downloaded or built here: install the server and use command.",
  GO009: "An mcp block sets client_id or client_secret, which are not used: squadron mcp login registers a client itself (warning).",
  GO010: "A model block sets prompt_caching = false, which is ignored: prompts are always cached (warning).",
  GO011: "A memory or packet block takes a name reserved for a mission's own slots (memory, scratchpad).",
  GO012: 'A memory block has the name of a mission (refused, as the first implementation did).',
  GO013: 'A trigger has no secret (as Go allows): the config loads, but squadron serve refuses its deliveries until one is set (warning).',
  GO014: 'An mcp_host block (Go\'s MCP host) is accepted, but its settings are not used: missions are MCP tools with squadron mcp serve and at /mcp on squadron serve (warning).',
  GO015: 'An mcp_host block\'s port is outside 1024–65535 (Go refuses it too).',
  // Telemetry (the telemetry block).
  TEL001: 'The telemetry block names no endpoint: nothing is exported unless an OTEL_EXPORTER_OTLP_* endpoint variable is set (warning).',
};

/** What a code means, whichever layer reports it. */
export function describeCode(code: string): string | undefined {
  return DIAGNOSTIC_CODES[code] ?? (CODE_TABLE as Readonly<Record<string, string>>)[code] ?? SKILL_CODES[code]?.meaning;
}

/** Sort by file, then position, then code: a stable order for output and tests. */
export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  return [...diags].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

export interface RenderOptions {
  /** Paths are shown relative to this directory. */
  cwd: string;
  color: boolean;
  /**
   * Source text of a file, for the excerpt; defaults to reading it from disk. Pass
   * `sourceReaderFor(result.sources)` to reuse the text the loader already read.
   */
  readSource?: (file: string) => string | undefined;
}

const ansi = {
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  cyan: '\u001b[36m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  reset: '\u001b[0m',
};

/** A path as the user should see it: relative to the cwd when that is shorter and stays inside. */
export function displayPath(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(cwd, file);
  return rel === '' ? '.' : rel.startsWith('..') && rel.length >= file.length ? file : rel;
}

/**
 * A source reader that answers from `known` (LoadResult.sources: every file the loader parsed) and
 * reads any other file (a SKILL.md it did not keep, a file named by a later pass) from disk once.
 */
export function sourceReaderFor(known: ReadonlyMap<string, string> = new Map()): (file: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (file) => {
    const text = known.get(file);
    if (text !== undefined) return text;
    if (!cache.has(file)) {
      // readTextFile, not readFileSync: a diagnostic may point at a FIFO (a SKILL.md that is one),
      // and reading that for an excerpt would block forever.
      const read = readTextFile(file);
      cache.set(file, read.ok ? read.text : undefined);
    }
    return cache.get(file);
  };
}

/** Renders one diagnostic as text: header, source line with an underline, hint. */
export function renderDiagnostic(d: Diagnostic, opts: RenderOptions, read = opts.readSource ?? sourceReaderFor()): string {
  return renderWith(d, opts, lineReader(read));
}

function renderWith(d: Diagnostic, opts: RenderOptions, lineOf: (file: string, line: number) => string | undefined): string {
  const paint = (code: string, s: string): string => (opts.color ? `${code}${s}${ansi.reset}` : s);
  const sevColor = d.severity === 'error' ? ansi.red : ansi.yellow;
  const where = d.line > 0 ? `${displayPath(d.file, opts.cwd)}:${d.line}:${d.column}` : displayPath(d.file, opts.cwd);
  const lines = [`${paint(ansi.bold, `${where}:`)} ${paint(ansi.bold + sevColor, `${d.severity}[${d.code}]`)}: ${messageText(d, opts.cwd)}`];
  const srcLine = d.line > 0 ? lineOf(d.file, d.line) : undefined;
  if (srcLine !== undefined) {
    const num = String(d.line);
    const gutter = ' '.repeat(num.length);
    const start = Math.max(0, d.column - 1);
    const end = d.endLine === d.line ? Math.max(d.endColumn - 1, start + 1) : Math.max(srcLine.length, start + 1);
    const shown = excerptWindow(srcLine, start, end);
    // Keep tabs as tabs so the caret lines up whatever the terminal's tab width.
    const pad = shown.text.slice(0, shown.start).replace(/[^\t]/g, ' ');
    lines.push(`  ${paint(ansi.dim, `${num} |`)} ${shown.text}`);
    lines.push(`  ${paint(ansi.dim, `${gutter} |`)} ${pad}${paint(sevColor, '^'.repeat(Math.max(1, shown.end - shown.start)))}`);
  }
  if (d.hint !== undefined) lines.push(`  ${paint(ansi.cyan, '= hint:')} ${d.hint}`);
  return lines.join('\n');
}

/** Characters of a source line shown around the column (a minified or hostile line is cut to this). */
const EXCERPT_WIDTH = 120;

/**
 * The part of a source line an excerpt shows: the whole line when it is short, else a window of
 * EXCERPT_WIDTH characters around the underlined span, with `…` where it was cut. `start`/`end`
 * are the underline's columns within the returned text.
 */
export function excerptWindow(line: string, start: number, end: number): { text: string; start: number; end: number } {
  if (line.length <= EXCERPT_WIDTH) return { text: line, start, end };
  const span = Math.min(end - start, EXCERPT_WIDTH / 2);
  const from = Math.max(0, Math.min(start - Math.floor((EXCERPT_WIDTH - span) / 2), line.length - EXCERPT_WIDTH));
  const to = Math.min(line.length, from + EXCERPT_WIDTH);
  const head = from > 0 ? '…' : '';
  const tail = to < line.length ? '…' : '';
  const s = start - from + head.length;
  return { text: `${head}${line.slice(from, to)}${tail}`, start: s, end: s + Math.max(1, Math.min(end, to) - start) };
}

/** Source lines by file, split once per file (not once per diagnostic). */
function lineReader(read: (file: string) => string | undefined): (file: string, line: number) => string | undefined {
  const split = new Map<string, string[] | undefined>();
  return (file, line) => {
    if (!split.has(file)) split.set(file, read(file)?.split(/\r?\n/));
    return split.get(file)?.[line - 1];
  };
}

export function renderDiagnostics(diags: readonly Diagnostic[], opts: RenderOptions): string {
  const lineOf = lineReader(opts.readSource ?? sourceReaderFor());
  return diags.map((d) => renderWith(d, opts, lineOf)).join('\n\n');
}

/** Problems listed per file; the rest are counted by one FIL011 (a hostile file cannot flood the terminal). */
export const MAX_DIAGNOSTICS_PER_FILE = 50;

/**
 * Keeps the first MAX_DIAGNOSTICS_PER_FILE diagnostics of each file (in the given order) and puts
 * after them one FIL011 that counts the others: "… and 3,951 more errors in main.hcl".
 */
export function capDiagnostics(diags: readonly Diagnostic[], max = MAX_DIAGNOSTICS_PER_FILE): Diagnostic[] {
  const perFile = new Map<string, Diagnostic[]>();
  for (const d of diags) {
    const list = perFile.get(d.file);
    if (list === undefined) perFile.set(d.file, [d]);
    else list.push(d);
  }
  if ([...perFile.values()].every((l) => l.length <= max)) return [...diags];
  const out: Diagnostic[] = [];
  const hidden = new Map<string, Diagnostic[]>();
  const shown = new Map<string, number>();
  for (const d of diags) {
    const n = shown.get(d.file) ?? 0;
    if (n < max) {
      out.push(d);
      shown.set(d.file, n + 1);
    } else {
      const list = hidden.get(d.file);
      if (list === undefined) hidden.set(d.file, [d]);
      else list.push(d);
    }
  }
  for (const [file, rest] of hidden) {
    const errors = rest.filter((d) => d.severity === 'error').length;
    const what = errors === rest.length ? `error${errors === 1 ? '' : 's'}` : errors === 0 ? `warning${rest.length === 1 ? '' : 's'}` : 'problems';
    const first = rest[0]!;
    out.push({
      severity: errors > 0 ? 'error' : 'warning',
      code: 'FIL011',
      message: `… and ${rest.length.toLocaleString('en-US')} more ${what} in this file, not listed`,
      hint: `fix the first ${max} and run again`,
      file,
      line: first.line,
      column: first.column,
      endLine: first.endLine,
      endColumn: first.endColumn,
    });
  }
  return out;
}

/** "2 errors, 1 warning" (empty when there is nothing to count). */
export function countSummary(diags: readonly Diagnostic[]): string {
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.length - errors;
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/**
 * The message as the user reads it: with the related location, if any, appended and its path
 * shown like the diagnostic's own ("… is declared twice (first at main.hcl:1:7)").
 */
export function messageText(d: Diagnostic, cwd: string): string {
  const r = d.related;
  return r === undefined ? d.message : `${d.message} (${r.label} ${displayPath(r.file, cwd)}:${r.line}:${r.column})`;
}

/**
 * The JSON form of a diagnostic: the same fields, paths relative to the cwd, and the message as
 * the text rendering shows it (related location included), so a reader of `message` alone loses
 * nothing.
 */
export function diagnosticToJson(d: Diagnostic, cwd: string): Diagnostic {
  const out: Diagnostic = { ...d, file: displayPath(d.file, cwd), message: messageText(d, cwd) };
  if (d.related !== undefined) out.related = { ...d.related, file: displayPath(d.related.file, cwd) };
  return out;
}
