// Which skills one agent session has loaded. Only the skills the session was given (its declared
// skills) can be loaded; loading hands back the instructions and the tools the skill unlocks, each
// tagged `skill:<name>` so the agent loop can add them to the provider tool list from the next turn.

import type { Skill, ToolRefWithProvenance } from '../../config/graph.js';
import { skillNameKey } from '../../config/skillFolders.js';
import { fillSkillPrompt } from './template.js';

export type SkillLoadResult =
  | {
      ok: true;
      skill: Skill;
      instructions: string;
      /** Every tool the skill unlocks, via `skill:<name>` (also when it was already loaded). */
      tools: ToolRefWithProvenance[];
      /** True when this call loaded nothing new (the tool list does not change). */
      alreadyLoaded: boolean;
    }
  | {
      ok: false;
      /** "Unknown skill" message for the model, naming the skills it can load. */
      error: string;
      name: string;
      /** The names this session can load, in the given order. */
      available: string[];
      /** A skill whose name differs only by case or `-`/`_`, when there is exactly one. */
      suggestion?: string;
    };

export class SkillSession {
  private readonly byName = new Map<string, Skill>();
  private readonly order: string[] = [];

  /** `skills`: the skills this session was given (declared for the agent), in prompt order. */
  constructor(private readonly skills: readonly Skill[]) {
    for (const skill of skills) if (!this.byName.has(skill.name)) this.byName.set(skill.name, skill);
  }

  /**
   * Rebuilds a session from the names a previous process stored (`loaded()`), for resume. Names no
   * longer among `skills` (the configuration changed between run and resume) are dropped and
   * returned so the caller can log them; the rest are re-loaded in their stored order.
   */
  static restore(skills: readonly Skill[], stored: readonly string[]): { session: SkillSession; dropped: string[] } {
    const session = new SkillSession(skills);
    const dropped: string[] = [];
    for (const name of stored) if (!session.load(name).ok) dropped.push(name);
    return { session, dropped };
  }

  /** The skill of that exact name, when this session was given it. */
  find(name: string): Skill | undefined {
    return this.byName.get(name);
  }

  available(): string[] {
    return [...this.byName.keys()];
  }

  /** Names loaded so far, in load order: what to store for resume. */
  loaded(): string[] {
    return [...this.order];
  }

  load(name: string): SkillLoadResult {
    const skill = this.byName.get(name);
    if (!skill) {
      const availableNames = this.available();
      const available = availableNames.length > 0 ? availableNames.join(', ') : fillSkillPrompt('none_available');
      const near = this.skills.filter((s) => skillNameKey(s.name) === skillNameKey(name));
      const suggestion = near.length === 1 ? near[0]?.name : undefined;
      if (suggestion === undefined) {
        return { ok: false, error: fillSkillPrompt('unknown', { name, available }), name, available: availableNames };
      }
      const error = fillSkillPrompt('unknown_suggest', { name, suggestion, available });
      return { ok: false, error, name, available: availableNames, suggestion };
    }
    const alreadyLoaded = this.order.includes(name);
    if (!alreadyLoaded) this.order.push(name);
    return { ok: true, skill, instructions: skill.instructions, tools: toolsOf(skill), alreadyLoaded };
  }

  /**
   * Tools unlocked by every loaded skill, in load order, first occurrence of a ref kept. The agent
   * loop merges these after the agent's own tools (an already-authorized ref keeps its own via).
   */
  unlockedTools(): ToolRefWithProvenance[] {
    const seen = new Set<string>();
    const tools: ToolRefWithProvenance[] = [];
    for (const name of this.order) {
      const skill = this.byName.get(name);
      if (!skill) continue;
      for (const tool of toolsOf(skill)) {
        if (seen.has(tool.ref)) continue;
        seen.add(tool.ref);
        tools.push(tool);
      }
    }
    return tools;
  }
}

function toolsOf(skill: Skill): ToolRefWithProvenance[] {
  return skill.tools.map((t) => ({ ref: t.ref, via: `skill:${skill.name}` as const }));
}
