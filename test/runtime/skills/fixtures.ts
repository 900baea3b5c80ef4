// Builds Skill values for the skills runtime tests.

import type { Skill } from '../../../config/graph.js';

export function hclSkill(name: string, extra: Partial<Skill> = {}): Skill {
  return {
    name,
    description: `Does ${name} work.`,
    instructions: `Instructions for ${name}.`,
    tools: [],
    origin: { kind: 'hcl', file: '/project/main.hcl', line: 10 },
    ...extra,
  };
}

export function folderSkill(name: string, extra: Partial<Skill> = {}): Skill {
  return hclSkill(name, { origin: { kind: 'folder', file: `/project/skills/${name}/SKILL.md`, line: 1 }, ...extra });
}
