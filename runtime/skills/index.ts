// The skills runtime in one import for the agent loop: the catalog section of the system prompt,
// the `load_skill` tool, per-session loaded-skill state (restorable on resume) and `$name` mentions.

export { renderSkillCatalog } from './catalog.js';
export type { SkillCatalog } from './catalog.js';
export { executeLoadSkill, loadSkillToolDefinition, LOAD_SKILL_TOOL_NAME } from './loadSkillTool.js';
export type { LoadSkillOutcome, PromptLoader } from './loadSkillTool.js';
export { COMMON_ENV_VARS, findSkillMentions } from './mentions.js';
export type { SkillMentions } from './mentions.js';
export { objectiveMentionText } from './mentionSource.js';
export { SkillSession } from './session.js';
export type { SkillLoadResult } from './session.js';
