// Finds explicit skill mentions in a text: `$name` and the linked form `[$name](path)`. A mention is
// a caller's declaration, never a keyword guess: only these spellings count, and an ambiguous one is
// ignored with a warning rather than resolved by guessing.
//
// Resolution, in three layers (after Codex's skills runtime):
//   1. linked, path = a folder skill's SKILL.md path (its canonical path)      -> that skill
//   2. linked, path = `skill://<name>` or `skill://<name>/SKILL.md`, exact name -> that skill
//   3. plain `$name`: names compare by skillNameKey (case-folded, `_` = `-`); a match counts only
//      when exactly one skill has that key. Two (`web_scraping` and `web-scraping`, or `Deploy` and
//      `deploy`) make the mention ambiguous: ignored, with a warning naming the linked form.
// Not mentions: common environment variables written in uppercase (`$HOME`, `$PATH`, ...), in either
// form; `$$name` (an escaped dollar); `${...}`; a `$` glued to a preceding word character (`US$5`,
// `a$b`); `$word` naming no skill (silently, since `$` is common in prose and code). A skill matched
// structurally (layers 1-2) is not matched again by a plain mention of the same name. A linked form
// whose path names no available skill (`skill://x`, or a `.../SKILL.md` path) warns; a link to
// anything else (a URL, `mcp://...`) is not about skills and is ignored.
// One left-to-right scan plus O(1) map look-ups: linear in the text length.

import { normalize } from 'node:path';
import type { Skill } from '../../config/graph.js';
import { SKILL_FILE, skillNameKey } from '../../config/skillFolders.js';

export interface SkillMentions {
  /** Matched skills in order of first mention, each once. */
  matched: Skill[];
  warnings: string[];
}

/** Matched case-sensitively: `$home` may name a skill, `$HOME` never does. */
export const COMMON_ENV_VARS: ReadonlySet<string> = new Set([
  'HOME', 'PATH', 'USER', 'USERNAME', 'LOGNAME', 'PWD', 'OLDPWD', 'SHELL', 'TMPDIR', 'TMP', 'TEMP',
  'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TERM', 'EDITOR', 'VISUAL', 'PAGER', 'HOSTNAME', 'HOST',
  'DISPLAY', 'MAIL', 'TZ', 'PS1', 'IFS', 'UID', 'EUID', 'RANDOM', 'SECONDS', 'CI', 'NODE_ENV',
  'SSH_AUTH_SOCK', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_RUNTIME_DIR',
  'GOPATH', 'JAVA_HOME', 'PYTHONPATH', 'VIRTUAL_ENV', 'CARGO_HOME',
]);

const SKILL_SCHEME = 'skill://';

type Token =
  | { kind: 'plain'; name: string }
  | { kind: 'linked'; name: string; path: string };

export function findSkillMentions(text: string, skills: readonly Skill[]): SkillMentions {
  const byName = new Map<string, Skill>();
  const byKey = new Map<string, Skill[]>();
  const byPath = new Map<string, Skill>();
  for (const skill of skills) {
    if (byName.has(skill.name)) continue;
    byName.set(skill.name, skill);
    const key = skillNameKey(skill.name);
    byKey.set(key, [...(byKey.get(key) ?? []), skill]);
    if (skill.origin.kind === 'folder') byPath.set(normalize(skill.origin.file), skill);
  }

  const tokens = scanMentions(text);
  const warnings = new Set<string>();

  // Layers 1-2 first: a structural match blocks plain mentions of the same name wherever they are.
  const structural = new Map<Token, Skill>();
  for (const token of tokens) {
    if (token.kind !== 'linked') continue;
    const skill = resolveLinked(token, byName, byPath, warnings);
    if (skill) structural.set(token, skill);
  }
  const blocked = new Set([...structural.values()].map((s) => s.name));

  const matched: Skill[] = [];
  const seen = new Set<string>();
  const add = (skill: Skill): void => {
    if (seen.has(skill.name)) return;
    seen.add(skill.name);
    matched.push(skill);
  };
  for (const token of tokens) {
    if (token.kind === 'linked') {
      const skill = structural.get(token);
      if (skill) add(skill);
      continue;
    }
    if (blocked.has(token.name)) continue;
    const candidates = byKey.get(skillNameKey(token.name));
    if (!candidates) continue;
    if (candidates.length === 1 && candidates[0]) {
      add(candidates[0]);
      continue;
    }
    const names = candidates.map((s) => s.name);
    warnings.add(
      `$${token.name} is ambiguous: it could mean skill ${names.map((n) => `"${n}"`).join(' or ')}; ` +
        `it was ignored. Write [$${names[0]}](skill://${names[0]}) to pick one.`,
    );
  }
  return { matched, warnings: [...warnings] };
}

function resolveLinked(
  token: { name: string; path: string },
  byName: ReadonlyMap<string, Skill>,
  byPath: ReadonlyMap<string, Skill>,
  warnings: Set<string>,
): Skill | undefined {
  const { path } = token;
  if (path.startsWith(SKILL_SCHEME)) {
    let name = path.slice(SKILL_SCHEME.length);
    if (name.endsWith(`/${SKILL_FILE}`)) name = name.slice(0, -(SKILL_FILE.length + 1));
    const skill = byName.get(name);
    if (!skill) warnings.add(`[$${token.name}](${path}) links to no available skill "${name}"; it was ignored.`);
    return skill;
  }
  if (path.includes('://')) return undefined;
  const skill = byPath.get(normalize(path));
  if (!skill && path.endsWith(SKILL_FILE)) {
    warnings.add(`[$${token.name}](${path}) links to a ${SKILL_FILE} that is not an available skill; it was ignored.`);
  }
  return skill;
}

/** One pass over the text; every index is visited a bounded number of times. */
function scanMentions(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  // The next ')' or newline at or after some index, cached so that many unclosed `[$x](` on one line
  // do not rescan the rest of the line each time.
  let stopFrom = -1;
  let stopAt = -1;
  const nextStop = (from: number): number => {
    if (from <= stopAt && from >= stopFrom) return stopAt;
    let i = from;
    while (i < n && text[i] !== ')' && text[i] !== '\n') i++;
    stopFrom = from;
    stopAt = i;
    return i;
  };

  let i = 0;
  while (i < n) {
    const c = text[i];
    if (c === '[' && text[i + 1] === '$') {
      const linked = linkedAt(text, i, nextStop);
      if (linked) {
        if (!COMMON_ENV_VARS.has(linked.name)) tokens.push({ kind: 'linked', name: linked.name, path: linked.path });
        i = linked.end;
        continue;
      }
      i++; // the `$` is looked at on its own next
      continue;
    }
    if (c !== '$') {
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === '$' || next === '{') {
      i += 2;
      continue;
    }
    const end = nameEnd(text, i + 1);
    if (end === i + 1 || (i > 0 && isWordChar(text.charCodeAt(i - 1)))) {
      i = end === i + 1 ? i + 1 : end;
      continue;
    }
    const name = text.slice(i + 1, end);
    if (!COMMON_ENV_VARS.has(name)) tokens.push({ kind: 'plain', name });
    i = end;
  }
  return tokens;
}

/** `[$name](path)` starting at `start` (the `[`); whitespace allowed between `]` and `(`. */
function linkedAt(
  text: string,
  start: number,
  nextStop: (from: number) => number,
): { name: string; path: string; end: number } | undefined {
  const nameStart = start + 2;
  const end = nameEnd(text, nameStart);
  if (end === nameStart || text[end] !== ']') return undefined;
  let open = end + 1;
  while (open < text.length && (text[open] === ' ' || text[open] === '\t')) open++;
  if (text[open] !== '(') return undefined;
  const close = nextStop(open + 1);
  if (text[close] !== ')') return undefined;
  const path = text.slice(open + 1, close).trim();
  if (path === '') return undefined;
  return { name: text.slice(nameStart, end), path, end: close + 1 };
}

function nameEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
  return i;
}

/** Skill names: ASCII letters, digits, `_` and `-` (HCL labels and Agent Skills names both fit). */
function isNameChar(code: number): boolean {
  return isWordChar(code) || code === 45; // '-'
}

function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 // a-z A-Z 0-9 _
  );
}
