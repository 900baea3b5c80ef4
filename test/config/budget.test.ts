// `budget { tokens, dollars, duration }` on missions and tasks, MOD004 for a dollar budget over an
// unpriced model, and the loop-guard attributes of agent_defaults and agents.

import { afterAll, describe, expect, test } from 'vitest';
import { at, codes, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const task = (extra = '') => `  task "a" {\n    objective = "x"\n    tools     = [builtins.utils.current_time]\n${extra}  }\n`;

describe('budget blocks', () => {
  test('a mission and a task budget load with their limits (duration in ms)', () => {
    const r = loadHcl(withMission(`  budget {\n    dollars  = 2.5\n    duration = "45m"\n  }\n${task('    budget {\n      tokens = 200000\n    }\n')}`));
    expect(codes(r)).toEqual([]);
    const mission = r.graph!.missions[0]!;
    expect(mission.budget).toMatchObject({ dollars: 2.5, durationMs: 2_700_000 });
    expect(mission.budget?.tokens).toBeUndefined();
    expect(mission.tasks[0]!.budget).toMatchObject({ tokens: 200000 });
  });

  test('rejects an empty budget, limits at or below 0, fractional tokens, a malformed duration, and a second block', () => {
    const src = withMission(`  budget {\n  }\n${task('    budget {\n      tokens   = 1.5\n      dollars  = 0\n      duration = "soon"\n    }\n    budget {\n      dollars = 1\n    }\n')}`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual(
      expect.arrayContaining([`SCH003@${at(src, 'budget {')}`, `SCH013@${at(src, '1.5')}`, `SCH013@${at(src, '0\n')}`, `SCH010@${at(src, '"soon"')}`, `SCH005@${at(src, 'budget {', 2)}`]),
    );
    expect(r.diagnostics.find((d) => d.code === 'SCH003')?.message).toBe('mission "m" budget: at least one of tokens, dollars or duration must be set');
  });

  test('MOD004 warns at a dollar budget when a model it covers has no pricing; a token budget does not', () => {
    const unpriced = `model "local" {\n  provider = "openai"\n  api_key  = "k"\n  base_url = "http://127.0.0.1:1"\n  aliases  = { small = "my-small-model" }\n}\n`;
    const src = `${unpriced}${withMission(`  budget {\n    dollars = 1\n  }\n  task "a" {\n    objective = "x"\n    tools     = [builtins.utils.current_time]\n    model     = models.local.small\n    budget {\n      tokens = 5000\n    }\n  }\n`)}`;
    const r = loadHcl(src);
    expect(codes(r)).toContain(`w:MOD004@${at(src, 'budget {')}`);
    expect(codes(r).filter((c) => c.includes('MOD004'))).toHaveLength(1);
    expect(r.diagnostics.find((d) => d.code === 'MOD004')?.message).toBe('mission "m" has a dollar budget, but models.local.small has no pricing: its calls count as $0 against it');
  });
});

describe('loop guards', () => {
  test('agent_defaults and an agent set max_repeated_calls and max_turns_without_progress (at least 2)', () => {
    const src = withMission(`  agent_defaults {\n    max_repeated_calls         = 4\n    max_turns_without_progress = 1\n  }\n${task()}`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH013@${at(src, '1\n')}`]);
    const ok = loadHcl(withMission(`  agent_defaults {\n    max_repeated_calls         = 4\n    max_turns_without_progress = 10\n  }\n${task()}`));
    expect(ok.graph!.missions[0]!.agentDefaults?.loopGuard).toEqual({ maxRepeatedCalls: 4, maxTurnsWithoutProgress: 10 });
  });
});
