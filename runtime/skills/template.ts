// The skill prompt texts: named sections of prompts/skills.md, rendered with the shared prompt
// template renderer. Prompt wording lives in Markdown, never in code.

import { renderPrompt } from '../../core/promptTemplates.js';

export type SkillPromptSection =
  | 'catalog'
  | 'entry'
  | 'trim_note'
  | 'omitted_more'
  | 'tool_description'
  | 'tool_name_description'
  | 'tool_arguments_description'
  | 'loaded_prompt'
  | 'no_arguments'
  | 'loaded'
  | 'loaded_tools'
  | 'loaded_folder'
  | 'unknown'
  | 'unknown_suggest'
  | 'none_available'
  | 'invalid_input';

/** One section with its placeholders filled; a placeholder without a value is an error. */
export function fillSkillPrompt(name: SkillPromptSection, values: Readonly<Record<string, string | number>> = {}): string {
  return renderPrompt('skills', { ...values, [name]: true }, { strict: true }).trim();
}
