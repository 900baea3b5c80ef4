// The run's start-up check of model credentials on its own: which blocks it covers (commander,
// workers, agents, sampling_model), which environment variables stand in for a key, and --replay.

import { describe, expect, it } from 'vitest';
import { loadHcl } from '../../config/support.js';
import { checkModelCredentials } from '../../../runtime/run/modelCredentials.js';
import { RunRefused } from '../../../runtime/run/runRefused.js';

function graphOf(hcl: string) {
  const loaded = loadHcl(hcl);
  if (!loaded.graph) throw new Error(JSON.stringify(loaded.diagnostics));
  return { graph: loaded.graph, mission: loaded.graph.missions[0]! };
}

const keyed = `model "keyed" {\n  provider = "anthropic"\n  api_key  = "k"\n}\n`;
const mission = (extra = '', commander = 'models.keyed.claude_sonnet_4_6') => `mission "m" {
  commander { model = ${commander} }
  task "t" {
    objective = "o"
    tools     = [builtins.utils.current_time]
  }
}
${extra}`;

function refusal(hcl: string, env: NodeJS.ProcessEnv = {}, replay?: string): string | undefined {
  const { graph, mission: m } = graphOf(hcl);
  try {
    checkModelCredentials(graph, m, replay, env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(RunRefused);
    expect((error as RunRefused).kind).toBe('usage');
    return (error as Error).message;
  }
}

describe('checkModelCredentials', () => {
  const samplingServer = `model "bare" {\n  provider = "anthropic"\n}\nmcp "s" {\n  command        = "x"\n  sampling       = true\n  sampling_model = models.bare.claude_haiku_4_5\n}\n`;

  it("refuses a keyless sampling_model, naming the block and the server that uses it", () => {
    expect(refusal(keyed + samplingServer + mission())).toContain('model "bare" (used by the sampling_model of mcp "s") has no api_key and ANTHROPIC_API_KEY is not set');
  });

  it('accepts the key from ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN', () => {
    expect(refusal(keyed + samplingServer + mission(), { ANTHROPIC_API_KEY: 'x' })).toBeUndefined();
    expect(refusal(keyed + samplingServer + mission(), { ANTHROPIC_AUTH_TOKEN: 'x' })).toBeUndefined();
  });

  it("covers the commander's model too", () => {
    expect(refusal(`model "bare" {\n  provider = "anthropic"\n}\n` + mission('', 'models.bare.claude_sonnet_4_6'))).toContain('used by the commander');
  });

  it('needs no key for an OpenAI block with a base_url (a local server), but does without one', () => {
    const local = `model "local" {\n  provider = "openai"\n  base_url = "http://127.0.0.1:1/v1"\n}\n`;
    expect(refusal(local + mission('', 'models.local.gpt_4_1'))).toBeUndefined();
    const remote = `model "remote" {\n  provider = "openai"\n}\n`;
    expect(refusal(remote + mission('', 'models.remote.gpt_4_1'))).toContain('OPENAI_API_KEY is not set');
    expect(refusal(remote + mission('', 'models.remote.gpt_4_1'), { OPENAI_API_KEY: 'x' })).toBeUndefined();
  });

  it('takes a Gemini key from GEMINI_API_KEY or GOOGLE_API_KEY, and needs none with a base_url', () => {
    const gemini = `model "g" {\n  provider = "gemini"\n}\n`;
    expect(refusal(gemini + mission('', 'models.g.gemini_3_8_flash'))).toContain('has no api_key and GEMINI_API_KEY is not set');
    expect(refusal(gemini + mission('', 'models.g.gemini_3_8_flash'), { GEMINI_API_KEY: 'x' })).toBeUndefined();
    expect(refusal(gemini + mission('', 'models.g.gemini_3_8_flash'), { GOOGLE_API_KEY: 'x' })).toBeUndefined();
    const proxied = `model "g" {\n  provider = "gemini"\n  base_url = "http://127.0.0.1:9/gemini"\n}\n`;
    expect(refusal(proxied + mission('', 'models.g.gemini_3_8_flash'))).toBeUndefined();
  });

  it('checks nothing under --replay', () => {
    expect(refusal(keyed + samplingServer + mission(), {}, 'cassette.jsonl')).toBeUndefined();
  });
});
