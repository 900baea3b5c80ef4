// The caller's tool and skill selection flags, shared by `run` and `plan` so a plan shows exactly
// what the same flags would give a run: --skill, --no-skills, --tool, --no-tools.

import type { Command } from 'commander';
import type { Selection } from '../api/project.js';
import { collect } from './io.js';

export interface SelectionFlags {
  skill: string[];
  skills: boolean;
  tool?: string[];
  tools: boolean;
}

export function addSelectionFlags(command: Command): Command {
  return command
    .option('--skill <name>', 'add a skill to every worker (repeatable)', collect, [])
    .option('--no-skills', 'give workers no skills at all')
    .option('--tool <ref>', 'restrict every worker to these of its tools (repeatable)', collect)
    .option('--no-tools', 'give workers no tools at all');
}

/** The flags as the API's selection. */
export function selectionOf(flags: SelectionFlags): Selection {
  const selection: Selection = { noTools: !flags.tools, skills: flags.skill, noSkills: !flags.skills };
  if (flags.tool) selection.tools = flags.tool;
  return selection;
}
