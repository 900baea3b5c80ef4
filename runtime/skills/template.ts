// Reads the skill prompt texts from prompts/skills.md (sections marked `<!-- @name -->`) and fills
// their `{{placeholders}}`. Prompt wording lives in Markdown, never in code; a missing section or
// placeholder is a packaging bug, so it throws rather than sending a half-filled prompt.

import { readFileSync } from 'node:fs';
import { assetPath } from '../../config/assets.js';

export type SkillPromptSection =
  | 'catalog'
  | 'entry'
  | 'trim_note'
  | 'omitted_more'
  | 'tool_description'
  | 'tool_name_description'
  | 'loaded'
  | 'loaded_tools'
  | 'loaded_folder'
  | 'unknown'
  | 'unknown_suggest'
  | 'none_available'
  | 'invalid_input';

const MARKER = /^<!-- @([a-z_]+) -->[ \t]*$/;

/** Splits a template file into its named sections. Exported for tests of the template's shape. */
export function parseSections(source: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  let lines: string[] = [];
  const flush = (): void => {
    if (current !== undefined) sections.set(current, lines.join('\n').replace(/^\s*\n|\s+$/g, ''));
  };
  for (const line of source.split(/\r?\n/)) {
    const m = MARKER.exec(line);
    if (m?.[1] !== undefined) {
      flush();
      current = m[1];
      lines = [];
    } else {
      lines.push(line);
    }
  }
  flush();
  return sections;
}

// The file is a shipped constant, so it is read once per process; never mutated after that.
let sections: Map<string, string> | undefined;

function section(name: SkillPromptSection): string {
  sections ??= parseSections(readFileSync(assetPath('prompts', 'skills.md'), 'utf8'));
  const text = sections.get(name);
  if (text === undefined) throw new Error(`prompts/skills.md has no section @${name}`);
  return text;
}

/** The section with every placeholder replaced in one pass (values may contain `{{` safely). */
export function fillSkillPrompt(name: SkillPromptSection, values: Readonly<Record<string, string | number>> = {}): string {
  return section(name).replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`prompts/skills.md @${name}: no value for {{${key}}}`);
    return String(value);
  });
}
