// Parses one SKILL.md (Agent Skills format) into a Skill: YAML frontmatter with `name`,
// `description`, optional `license`, `compatibility`, `metadata`, `allowed-tools`, then the Markdown
// instructions. Every problem becomes a diagnostic at the offending line (codes: config/skillFolders.ts).

import type { Node } from 'yaml';
import { parseFrontmatter } from './frontmatter.js';
import { yaml } from './yamlLib.js';
import type { FrontmatterEntry } from './frontmatter.js';
import type { Skill } from './graph.js';
import { diagnosticAt } from './hcl/diagnostic.js';
import type { Diagnostic, Range } from './hcl/diagnostic.js';
import { closest } from './hcl/suggest.js';

export const SKILL_FILE = 'SKILL.md';
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

const KNOWN_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Parses one SKILL.md. `folderName` is the name the skill must have. Pure: no file access. */
export function parseSkillFile(
  text: string,
  file: string,
  folderName: string,
): { skill?: Skill; diagnostics: Diagnostic[] } {
  const parsed = parseFrontmatter(text, file);
  if (!parsed.ok) {
    const code = { missing: 'SKL010', unterminated: 'SKL011', syntax: 'SKL012', not_a_mapping: 'SKL013' }[parsed.problem];
    const hint =
      parsed.problem === 'missing' || parsed.problem === 'unterminated'
        ? 'a SKILL.md starts with `---`, then `name:` and `description:` lines, then `---`, then the instructions'
        : undefined;
    return { diagnostics: [diagnosticAt(parsed.range, 'warning', code, `${SKILL_FILE}: ${parsed.message} (the skill is skipped)`, hint)] };
  }
  const fm = parsed.frontmatter;
  const diagnostics: Diagnostic[] = [];
  const error = (range: Range, code: string, message: string, hint?: string): void => {
    // One broken skill never takes the config down: it is reported and skipped (a reference to it
    // is then an unknown-skill error at the reference).
    diagnostics.push(diagnosticAt(range, 'warning', code, `${message} (the skill is skipped)`, hint));
  };

  const byKey = new Map<string, FrontmatterEntry>();
  for (const entry of fm.entries) {
    if ((KNOWN_KEYS as readonly string[]).includes(entry.key)) byKey.set(entry.key, entry);
    else error(entry.keyRange, 'SKL014', `unknown frontmatter key "${entry.key}"`, unknownKeyHint(entry.key));
  }

  const name = checkName(byKey.get('name'), fm.openRange, folderName, error);
  const description = checkDescription(byKey.get('description'), fm.openRange, error);
  const license = optionalString(byKey.get('license'), error);
  const compatibility = optionalString(byKey.get('compatibility'), error);
  const compatibilityEntry = byKey.get('compatibility');
  if (compatibility !== undefined && compatibilityEntry) {
    const length = [...compatibility].length;
    if (length === 0 || length > MAX_COMPATIBILITY_LENGTH) {
      error(
        compatibilityEntry.valueRange,
        'SKL026',
        `compatibility must be 1 to ${MAX_COMPATIBILITY_LENGTH} characters, got ${length}`,
      );
    }
  }
  const metadata = checkMetadata(byKey.get('metadata'), fm.rangeOf, error);
  const allowedTools = checkAllowedTools(byKey.get('allowed-tools'), error);

  const instructions = fm.body.trim();
  if (instructions === '') {
    const line = fm.bodyLine;
    error(
      { file, start: { line, column: 1, offset: text.length }, end: { line, column: 1, offset: text.length } },
      'SKL029',
      `${SKILL_FILE} has no instructions after the frontmatter`,
      'write the instructions the agent receives when it loads the skill below the closing `---`',
    );
  }

  if (diagnostics.length > 0 || name === undefined || description === undefined) return { diagnostics };
  const skill: Skill = {
    name,
    description,
    instructions,
    tools: [],
    origin: { kind: 'folder', file, line: 1 },
  };
  if (license !== undefined) skill.license = license;
  if (compatibility !== undefined) skill.compatibility = compatibility;
  if (metadata !== undefined) skill.metadata = metadata;
  if (allowedTools !== undefined) skill.allowedTools = allowedTools;
  return { skill, diagnostics };
}

type ReportError = (range: Range, code: string, message: string, hint?: string) => void;

function checkName(
  entry: FrontmatterEntry | undefined,
  openRange: Range,
  folderName: string,
  error: ReportError,
): string | undefined {
  if (!entry) {
    error(openRange, 'SKL020', 'the frontmatter has no "name"', `add \`name: ${folderName}\` (the folder's name)`);
    return undefined;
  }
  if (typeof entry.value !== 'string') {
    error(entry.valueRange, 'SKL015', `"name" must be a string, got ${describe(entry.value)}`);
    return undefined;
  }
  const name = entry.value;
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) {
    error(entry.valueRange, 'SKL022', `skill name is ${length} characters long; the limit is ${MAX_NAME_LENGTH}`);
    return undefined;
  }
  const problem = nameProblem(name);
  if (problem !== undefined) {
    error(
      entry.valueRange,
      'SKL021',
      `invalid skill name "${name}": ${problem}`,
      'use lowercase letters, digits and single hyphens, e.g. "web-scraping"',
    );
    return undefined;
  }
  if (name !== folderName) {
    error(
      entry.valueRange,
      'SKL023',
      `skill name "${name}" does not match its folder "${folderName}"`,
      `rename the folder to "${name}" or set \`name: ${folderName}\``,
    );
    return undefined;
  }
  return name;
}

function nameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (NAME_PATTERN.test(name)) return undefined;
  if (/[A-Z]/.test(name)) return 'uppercase letters are not allowed';
  const bad = [...name].find((c) => !/[a-z0-9-]/.test(c));
  if (bad !== undefined) return `character ${JSON.stringify(bad)} is not allowed`;
  if (name.startsWith('-') || name.endsWith('-')) return 'it must not start or end with a hyphen';
  return 'it must not contain two hyphens in a row';
}

function checkDescription(entry: FrontmatterEntry | undefined, openRange: Range, error: ReportError): string | undefined {
  if (!entry) {
    error(openRange, 'SKL024', 'the frontmatter has no "description"', 'say what the skill does and when to use it');
    return undefined;
  }
  if (typeof entry.value !== 'string') {
    error(entry.valueRange, 'SKL015', `"description" must be a string, got ${describe(entry.value)}`);
    return undefined;
  }
  const description = entry.value.trim();
  const length = [...description].length;
  if (length === 0) {
    error(entry.valueRange, 'SKL024', '"description" is empty', 'say what the skill does and when to use it');
    return undefined;
  }
  if (length > MAX_DESCRIPTION_LENGTH) {
    error(
      entry.valueRange,
      'SKL025',
      `"description" is ${length} characters long; the limit is ${MAX_DESCRIPTION_LENGTH}`,
      'keep the description to what the skill is for; details belong in the instructions',
    );
    return undefined;
  }
  return description;
}

function optionalString(entry: FrontmatterEntry | undefined, error: ReportError): string | undefined {
  if (!entry) return undefined;
  if (typeof entry.value !== 'string') {
    error(entry.valueRange, 'SKL015', `"${entry.key}" must be a string, got ${describe(entry.value)}`);
    return undefined;
  }
  return entry.value.trim();
}

function checkMetadata(
  entry: FrontmatterEntry | undefined,
  rangeOf: (node: Node) => Range,
  error: ReportError,
): Record<string, string> | undefined {
  if (!entry) return undefined;
  const { isMap, isScalar } = yaml();
  const value = entry.value;
  if (!isMap(entry.node) || value === null || typeof value !== 'object' || Array.isArray(value)) {
    error(entry.valueRange, 'SKL027', `"metadata" must be a map of strings, got ${describe(value)}`);
    return undefined;
  }
  const values = value as Record<string, unknown>;
  const result: Record<string, string> = {};
  let ok = true;
  for (const pair of entry.node.items) {
    const keyNode = pair.key as Node | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    const item = values[key];
    if (typeof item === 'string') {
      result[key] = item;
      continue;
    }
    ok = false;
    error(
      keyNode ? rangeOf(keyNode) : entry.keyRange,
      'SKL027',
      `metadata "${key}" must be a string, got ${describe(item ?? null)}`,
      'quote the value, e.g. version: "1.0"',
    );
  }
  return ok ? result : undefined;
}

function checkAllowedTools(entry: FrontmatterEntry | undefined, error: ReportError): string[] | undefined {
  if (!entry) return undefined;
  const value = entry.value;
  if (typeof value === 'string') return value.split(/\s+/).filter((t) => t !== '');
  if (Array.isArray(value) && value.every((t): t is string => typeof t === 'string' && t.trim() !== '')) {
    return value.map((t) => t.trim());
  }
  error(
    entry.valueRange,
    'SKL028',
    `"allowed-tools" must be a space-separated string or a list of strings, got ${describe(value)}`,
  );
  return undefined;
}

function unknownKeyHint(key: string): string {
  const allowed = `allowed keys: ${KNOWN_KEYS.join(', ')}`;
  const suggestion = closest(key, KNOWN_KEYS);
  if (suggestion !== undefined) return `did you mean "${suggestion}"? (${allowed})`;
  if (key === 'tools') {
    return 'a folder skill cannot grant tools; declare an HCL `skill` block with `tools = [...]` instead';
  }
  return `${allowed}; put custom fields under "metadata"`;
}

function describe(value: unknown): string {
  if (value === null) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `${typeof value} ${JSON.stringify(value)}`;
}
