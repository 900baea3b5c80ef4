// tool_response { max_tokens }: read on the commander, agents and agent_defaults (the worker inherits
// the latter), and refused with SCH013 at the value when it is out of range or not a whole number.

import { afterAll, describe, expect, test } from 'vitest';
import { at, codes, loadHcl, MODEL, only, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

function source(commander: string, defaults: string, agent: string): string {
  return `${MODEL}
agent "helper" {
  model       = models.claude.claude_haiku_4_5
  personality = "Helps"
${agent}
}
mission "m" {
  commander {
    model = models.claude.claude_sonnet_5_5
${commander}
  }
  agent_defaults {
${defaults}
  }
  task "t" {
    objective = "x"
    tools     = [builtins.utils.current_time]
    agents    = [agents.helper]
  }
}
`;
}

describe('tool_response', () => {
  test('is read on the commander, an agent and agent_defaults, which the worker inherits', () => {
    const r = loadHcl(
      source('    tool_response {\n      max_tokens = 4000\n    }', '    tool_response {\n      max_tokens = 20000\n    }', '  tool_response {\n    max_tokens = 8000\n  }'),
    );
    expect(codes(r)).toEqual([]);
    const mission = r.graph!.missions[0]!;
    expect(mission.commander.toolResponse).toEqual({ maxTokens: 4000 });
    expect(mission.agentDefaults?.toolResponse).toEqual({ maxTokens: 20000 });
    expect(mission.tasks[0]!.worker?.toolResponse).toEqual({ maxTokens: 20000 });
    expect(r.graph!.agents.find((a) => a.name === 'helper')?.toolResponse).toEqual({ maxTokens: 8000 });
  });

  test('is absent unless written', () => {
    const r = loadHcl(source('', '', ''));
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.commander.toolResponse).toBeUndefined();
    expect(r.graph!.missions[0]!.tasks[0]!.worker?.toolResponse).toBeUndefined();
  });

  test.each([['10'], ['2000000'], ['1500.5']])('refuses max_tokens = %s with SCH013 at the value, and a hint', (value) => {
    const src = source(`    tool_response {\n      max_tokens = ${value}\n    }`, '', '');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH013@${at(src, value)}`]);
    const d = only(r, 'SCH013');
    expect(d.message).toBe(`max_tokens must be a whole number from 1,000 to 1,000,000, got ${value}`);
    expect(d.hint).toContain('the default is 16,000');
  });

  test('requires max_tokens, and allows one block', () => {
    const src = source('', '', '  tool_response {\n  }\n  tool_response {\n    max_tokens = 5000\n  }');
    expect(codes(loadHcl(src))).toEqual([`SCH003@${at(src, 'tool_response')}`, `SCH005@${at(src, 'tool_response', 1)}`]);
  });

  test('refuses an unknown attribute inside it', () => {
    const src = source('    tool_response {\n      max_token = 5000\n    }', '', '');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH003@${at(src, 'tool_response')}`, `SCH001@${at(src, 'max_token')}`]);
    expect(only(r, 'SCH001').hint).toContain('max_tokens');
  });
});
