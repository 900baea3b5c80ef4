// Loads Agent Skills folders (`skills_dir`): every sub-folder holding a SKILL.md becomes a Skill.
// Loading returns skills AND diagnostics: a broken skill is reported with its file and line and left
// out, the others still load. Also checks skill names across sources (`duplicateSkillDiagnostics`).
//
// Tools: a folder skill grants none. `allowed-tools` is recorded (shown by `squadron plan`) but is
// informational only, because in Squadron a tool reaches an agent only through a declaration in HCL
// that `squadron plan` can show with its provenance; a file dropped into a folder must not be able
// to widen what an agent may call. A skill that needs tools is an HCL `skill` block with `tools`.
//
// Codes (stable; never reuse a retired number):
// | code   | sev     | meaning                                                                  |
// |--------|---------|--------------------------------------------------------------------------|
// | SKL001 | error   | skills_dir does not exist, is not a directory, or cannot be read         |
// | SKL002 | warning | a sub-folder of skills_dir has no SKILL.md (ignored)                     |
// | SKL003 | error   | SKILL.md cannot be read                                                  |
// | SKL010 | error   | SKILL.md does not start with `---` frontmatter                           |
// | SKL011 | error   | frontmatter never closed                                                 |
// | SKL012 | error   | frontmatter is not valid YAML                                            |
// | SKL013 | error   | frontmatter is not a `key: value` mapping                                |
// | SKL014 | error   | unknown frontmatter key                                                  |
// | SKL015 | error   | a frontmatter value has the wrong type                                   |
// | SKL020 | error   | `name` missing                                                           |
// | SKL021 | error   | `name` has characters or hyphens the format forbids                      |
// | SKL022 | error   | `name` longer than 64 characters                                         |
// | SKL023 | error   | `name` differs from the folder name                                      |
// | SKL024 | error   | `description` missing or empty                                           |
// | SKL025 | error   | `description` longer than 1024 characters                                |
// | SKL026 | error   | `compatibility` empty or longer than 500 characters                      |
// | SKL027 | error   | `metadata` is not a map of strings to strings                            |
// | SKL028 | error   | `allowed-tools` is not a space-separated string or a list of strings     |
// | SKL029 | error   | SKILL.md has no instructions after the frontmatter                       |
// | SKL040 | error   | two skills share a name                                                  |
// | SKL041 | warning | two skill names differ only by case or `-`/`_` (plain `$name` ambiguous) |

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Skill } from './graph.js';
import { diagnosticAt } from './hcl/diagnostic.js';
import type { Diagnostic, Range } from './hcl/diagnostic.js';
import { parseSkillFile, SKILL_FILE } from './skillFile.js';

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
  for (const dir of dirs) {
    const folders = listFolders(dir, diagnostics);
    for (const folder of folders) {
      const file = join(dir.path, folder, SKILL_FILE);
      const text = readSkillFile(file, folder, dir, diagnostics);
      if (text === undefined) continue;
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
  return { skills: unique, diagnostics };
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
      diagnostics.push(
        diagnosticAt(
          originRange(skill),
          'error',
          'SKL040',
          `skill "${skill.name}" is defined twice: here and at ${where(first)}`,
          'skill names must be unique across skill blocks and skills_dir folders; rename or remove one',
        ),
      );
      continue;
    }
    firstByName.set(skill.name, skill);
    const key = skillNameKey(skill.name);
    const similar = firstByKey.get(key);
    if (similar) {
      diagnostics.push(
        diagnosticAt(
          originRange(skill),
          'warning',
          'SKL041',
          `skill "${skill.name}" differs from skill "${similar.name}" (${where(similar)}) only by case or -/_`,
          `a plain $${skill.name} mention cannot tell them apart and is ignored; write [$${skill.name}](skill://${skill.name}), or rename one`,
        ),
      );
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
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
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
    diagnostics.push(
      diagnosticAt(
        { file, start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } },
        'error',
        'SKL003',
        `cannot read ${basename(dirname(file))}/${SKILL_FILE}: ${(e as Error).message}`,
      ),
    );
    return undefined;
  }
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
  const { file, line } = skill.origin;
  return { file, start: { line, column: 1, offset: 0 }, end: { line, column: 1, offset: 0 } };
}

function where(skill: Skill): string {
  return `${skill.origin.file}:${skill.origin.line}`;
}
