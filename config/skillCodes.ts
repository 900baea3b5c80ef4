// The SKL diagnostic codes of Agent Skills folders (config/skillFolders.ts, config/skillFile.ts):
// one entry per code with its severity and meaning, for docs/diagnostics.md and describeCode.
// Codes are stable; never reuse a retired number. A problem inside one SKILL.md is a warning and
// that skill is skipped (one broken skill never takes the config down).

import type { Severity } from './hcl/diagnostic.js';

export interface SkillCode {
  severity: Severity;
  meaning: string;
}

export const SKILL_CODES: Readonly<Record<string, SkillCode>> = {
  SKL001: { severity: 'error', meaning: 'skills_dir does not exist, is not a directory, or cannot be read.' },
  SKL002: { severity: 'warning', meaning: 'A sub-folder of skills_dir has no SKILL.md (ignored).' },
  SKL003: { severity: 'error', meaning: 'SKILL.md cannot be read, is not a regular file, or is not UTF-8 text.' },
  SKL010: { severity: 'warning', meaning: 'SKILL.md does not start with `---` frontmatter (skill skipped).' },
  SKL011: { severity: 'warning', meaning: 'The frontmatter is never closed (skill skipped).' },
  SKL012: { severity: 'warning', meaning: 'The frontmatter is not valid YAML (skill skipped).' },
  SKL013: { severity: 'warning', meaning: 'The frontmatter is not a `key: value` mapping (skill skipped).' },
  SKL014: { severity: 'warning', meaning: 'Unknown frontmatter key (skill skipped).' },
  SKL015: { severity: 'warning', meaning: 'A frontmatter value has the wrong type (skill skipped).' },
  SKL020: { severity: 'warning', meaning: '`name` is missing (skill skipped).' },
  SKL021: { severity: 'warning', meaning: '`name` has characters or hyphens the format forbids (skill skipped).' },
  SKL022: { severity: 'warning', meaning: '`name` is longer than 64 characters (skill skipped).' },
  SKL023: { severity: 'warning', meaning: '`name` differs from the folder name (skill skipped).' },
  SKL024: { severity: 'warning', meaning: '`description` is missing or empty (skill skipped).' },
  SKL025: { severity: 'warning', meaning: '`description` is longer than 1024 characters (skill skipped).' },
  SKL026: { severity: 'warning', meaning: '`compatibility` is empty or longer than 500 characters (skill skipped).' },
  SKL027: { severity: 'warning', meaning: '`metadata` is not a map of strings to strings (skill skipped).' },
  SKL028: { severity: 'warning', meaning: '`allowed-tools` is not a space-separated string or a list of strings (skill skipped).' },
  SKL029: { severity: 'warning', meaning: 'SKILL.md has no instructions after the frontmatter (skill skipped).' },
  SKL040: { severity: 'error', meaning: 'Two skills share a name.' },
  SKL041: { severity: 'warning', meaning: 'Two skill names differ only by case or `-`/`_` (a plain `$name` mention is ambiguous).' },
};
