// The caller's tool and skill selection flags, shared by `run` and `plan` so a plan shows exactly
// what the same flags would give a run: --skill, --no-skills, --tool, --no-tools.

import type { Command } from 'commander';
import type { Mission, MissionGraph } from '../config/graph.js';
import { coversToolRef } from '../config/toolRefs.js';
import type { SelectionOverrides } from '../runtime/runContext.js';
import { CliError, collect } from './io.js';

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

/** The flags as overrides, checked against what the mission's workers can be given. */
export function selectionOverrides(graph: MissionGraph, mission: Mission, flags: SelectionFlags): SelectionOverrides {
  if (!flags.skills && flags.skill.length > 0) throw new CliError('--skill and --no-skills cannot be used together');
  if (!flags.tools && flags.tool) throw new CliError('--tool and --no-tools cannot be used together');
  const overrides: SelectionOverrides = { noTools: !flags.tools, skills: flags.skills ? flags.skill : [], noSkills: !flags.skills };
  for (const name of overrides.skills) {
    if (!graph.skills.some((s) => s.name === name)) {
      throw new CliError(`--skill ${name}: no such skill (skills: ${graph.skills.map((s) => s.name).join(', ') || 'none'})`);
    }
  }
  if (flags.tool) {
    const workerTools = [...new Set(mission.tasks.flatMap((t) => t.worker?.tools.map((x) => x.ref) ?? []))];
    for (const ref of flags.tool) {
      // `mcp.s.t` is authorized by `mcp.s.all`; whether the server has `t` is known once it is connected.
      if (!coversToolRef(workerTools, ref)) {
        throw new CliError(`--tool ${ref}: no worker of mission "${mission.name}" is authorized to use it (authorized: ${workerTools.join(', ') || 'none'})`);
      }
    }
    overrides.tools = flags.tool;
  }
  return overrides;
}
