// Loads Agent Skills folders (`skills_dir`): every sub-folder holding a SKILL.md becomes a Skill.
// Loading returns skills AND diagnostics: a broken skill is reported with its file and line and left
// out, the others still load. Also checks skill names across sources (`duplicateSkillDiagnostics`).
//
// Tools: a folder skill grants none. `allowed-tools` is recorded (shown by `squadron plan`) but is
// informational only, because in Squadron a tool reaches an agent only through a declaration in HCL
// that `squadron plan` can show with its provenance; a file dropped into a folder must not be able
// to widen what an agent may call. A skill that needs tools is an HCL `skill` block with `tools`.
//
// Codes: config/skillCodes.ts (SKL001–SKL041).

import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Skill } from './graph.js';
import { diagnosticAt, rangeAtLocation } from './hcl/diagnostic.js';
import type { Diagnostic, Range, RelatedLocation } from './hcl/diagnostic.js';
import { parseSkillFile, SKILL_FILE } from './skillFile.js';
import { readTextFile } from './textFile.js';

export { parseSkillFile, SKILL_FILE } from './skillFile.js';

export interface SkillsDir {
  /** Absolute path (the loader resolves it against the project root). */
  path: string;
  /** The `skills_dir` attribute, where a missing directory is reported. */
  declaredAt: Range;
}

export interface SkillFolderLoad {
  /** Sorted by name; names are unique (a later duplicate is reported and left out). */
  skills: Skill[];
  diagnostics: Diagnostic[];
  /** The text of every SKILL.md read, by path: what diagnostics are rendered against. */
  sources: Map<string, string>;
}

/**
 * The key under which plain `$name` mentions compare names: case-folded, `_` read as `-`. Two
 * distinct skills with the same key make a plain mention of either ambiguous (SKL041 warns).
 */
export function skillNameKey(name: string): string {
  return name.toLowerCase().replace(/_/g, '-');
}

export function loadSkillFolders(dirs: readonly SkillsDir[]): SkillFolderLoad {
  const skills: Skill[] = [];
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  for (const dir of dirs) {
    const folders = listFolders(dir, diagnostics);
    for (const folder of folders) {
      const file = join(dir.path, folder, SKILL_FILE);
      const text = readSkillFile(file, folder, dir, diagnostics);
      if (text === undefined) continue;
      sources.set(file, text);
      const parsed = parseSkillFile(text, file, folder);
      diagnostics.push(...parsed.diagnostics);
      if (parsed.skill) skills.push(parsed.skill);
    }
  }
  // Folder-vs-folder duplicates are reported here and the later copy dropped, so the loader can run
  // duplicateSkillDiagnostics over HCL + folder skills without reporting these twice.
  const dupes = duplicateSkillDiagnostics(skills);
  diagnostics.push(...dupes);
  const seen = new Set<string>();
  const unique = skills.filter((s) => (seen.has(s.name) ? false : (seen.add(s.name), true)));
  unique.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills: unique, diagnostics, sources };
}

/**
 * Duplicate names among `all` (in the given order; the first keeps the name): one SKL040 error per
 * later copy, pointing at it and naming the first. Also SKL041 warnings for distinct names that only
 * differ by case or `-`/`_`, since a plain `$name` mention cannot choose between them.
 */
export function duplicateSkillDiagnostics(all: readonly Skill[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const firstByName = new Map<string, Skill>();
  const firstByKey = new Map<string, Skill>();
  for (const skill of all) {
    const first = firstByName.get(skill.name);
    if (first) {
      const d = diagnosticAt(
        originRange(skill),
        'error',
        'SKL040',
        `skill "${skill.name}" is defined twice`,
        'skill names must be unique across skill blocks and skills_dir folders; rename or remove one',
      );
      d.related = originOf(first, 'first defined at');
      diagnostics.push(d);
      continue;
    }
    firstByName.set(skill.name, skill);
    const key = skillNameKey(skill.name);
    const similar = firstByKey.get(key);
    if (similar) {
      const d = diagnosticAt(
        originRange(skill),
        'warning',
        'SKL041',
        `skill "${skill.name}" differs from skill "${similar.name}" only by case or -/_`,
        `a plain $${skill.name} mention cannot tell them apart and is ignored; write [$${skill.name}](skill://${skill.name}), or rename one`,
      );
      d.related = originOf(similar, `skill "${similar.name}" at`);
      diagnostics.push(d);
    } else {
      firstByKey.set(key, skill);
    }
  }
  return diagnostics;
}

function listFolders(dir: SkillsDir, diagnostics: Diagnostic[]): string[] {
  let names: string[];
  try {
    if (!statSync(dir.path).isDirectory()) {
      diagnostics.push(
        diagnosticAt(dir.declaredAt, 'error', 'SKL001', `skills_dir "${dir.path}" is not a directory`),
      );
      return [];
    }
    names = readdirSync(dir.path);
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    diagnostics.push(
      diagnosticAt(
        dir.declaredAt,
        'error',
        'SKL001',
        missing ? `skills_dir "${dir.path}" does not exist` : `cannot read skills_dir "${dir.path}": ${(e as Error).message}`,
        missing ? 'relative paths are resolved against the directory of the mission files' : undefined,
      ),
    );
    return [];
  }
  // Hidden entries (.git, .DS_Store) are never skills; symlinked folders are followed.
  return names
    .filter((n) => !n.startsWith('.') && isDirectory(join(dir.path, n)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function readSkillFile(file: string, folder: string, dir: SkillsDir, diagnostics: Diagnostic[]): string | undefined {
  const read = readTextFile(file);
  if (read.ok) return read.text;
  if (read.problem === 'missing') {
    const nearMiss = listNames(dirname(file)).find((f) => f.toLowerCase() === SKILL_FILE.toLowerCase());
    diagnostics.push(
      diagnosticAt(
        dir.declaredAt,
        'warning',
        'SKL002',
        `folder "${folder}" in skills_dir has no ${SKILL_FILE}; it is ignored`,
        nearMiss !== undefined ? `rename "${nearMiss}" to "${SKILL_FILE}" (the name is case-sensitive)` : undefined,
      ),
    );
    return undefined;
  }
  // A FIFO named SKILL.md would block the read forever; a binary file is no skill either.
  diagnostics.push(diagnosticAt(rangeAtLocation({ file, line: 1, column: 1 }), 'error', 'SKL003', `${basename(dirname(file))}/${SKILL_FILE} ${read.message}`));
  return undefined;
}

function listNames(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function originRange(skill: Skill): Range {
  return rangeAtLocation({ file: skill.origin.file, line: skill.origin.line, column: 1 });
}

function originOf(skill: Skill, label: string): RelatedLocation {
  return { label, file: skill.origin.file, line: skill.origin.line, column: 1 };
}
