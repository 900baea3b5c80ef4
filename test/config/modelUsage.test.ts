// What the loader says about the models a config references: deprecated (MOD001, with the date and
// the key to move to), retired (MOD002), unpriced (MOD003) — once per model, at its first reference.

import { afterAll, describe, expect, test } from 'vitest';
import { at, codes, loadFiles, loadHcl, only, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

/** Diagnostics as `CODE@line:col`, without the "no mission" warning these mission-less configs get. */
const modelCodes = (r: Parameters<typeof codes>[0]): string[] => codes(r).filter((c) => !c.includes('GRA012'));

/** A model block, then one agent per model key given, in order. */
function config(keys: string[], block = 'model "claude" {\n  provider = "anthropic"\n}\n'): string {
  return block + keys.map((k, i) => `agent "a${i}" {\n  model       = models.claude.${k}\n  personality = "p"\n}\n`).join('');
}

describe('deprecated models (MOD001)', () => {
  test('a deprecated key warns once, at its first reference, with the date and the replacement', () => {
    const src = config(['claude_sonnet_4_5', 'claude_sonnet_4_5', 'claude_sonnet_4_5']);
    const r = loadHcl(src, { today: '2026-11-29' });
    expect(modelCodes(r)).toEqual([`w:MOD001@${at(src, 'models.claude.claude_sonnet_4_5')}`]);
    expect(r.graph).toBeDefined();
    const d = only(r, 'MOD001');
    expect(d.message).toBe('models.claude.claude_sonnet_4_5 (claude-sonnet-4-5-20250929) is deprecated: Anthropic retires it on 2026-11-30 (tomorrow); referenced 3 times');
    expect(d.hint).toBe('use models.claude.claude_sonnet_5_5 instead');
  });

  test('the warning counts the days left', () => {
    const r = loadHcl(config(['claude_opus_4_5']), { today: '2026-11-29' });
    expect(only(r, 'MOD001').message).toBe('models.claude.claude_opus_4_5 (claude-opus-4-5-20251101) is deprecated: Anthropic retires it on 2027-01-22 (in 54 days)');
  });

  test('an alias is checked by the id it sends, the undated id included', () => {
    const src = config(['fast'], 'model "claude" {\n  provider = "anthropic"\n  aliases  = { fast = "claude-sonnet-4-5" }\n}\n');
    const r = loadHcl(src, { today: '2026-11-01' });
    expect(modelCodes(r)).toEqual([`w:MOD001@${at(src, 'models.claude.fast')}`]);
    expect(only(r, 'MOD001').hint).toBe('point the alias at another model, or use models.claude.claude_sonnet_5_5');
  });

  test('current models, unreferenced deprecated ones and replay blocks say nothing', () => {
    expect(modelCodes(loadHcl(config(['claude_sonnet_5_5', 'claude_haiku_4_5']), { today: '2026-11-29' }))).toEqual([]);
    const replay = 'model "claude" {\n  provider = "replay"\n  cassette = "c.jsonl"\n}\n';
    const r = loadFiles({ 'main.hcl': config(['claude_sonnet_4_5', 'claude_3_5_haiku', 'gpt_5_4'], replay), 'c.jsonl': '' }, { today: '2026-11-29' });
    expect(modelCodes(r)).toEqual([]);
  });
});

describe('retired models (MOD002)', () => {
  test('from its end-of-life date on, a model is an error: the config is invalid', () => {
    const src = config(['claude_sonnet_4_5']);
    const r = loadHcl(src, { today: '2026-11-30' });
    expect(modelCodes(r)).toEqual([`MOD002@${at(src, 'models.claude.claude_sonnet_4_5')}`]);
    expect(r.graph).toBeUndefined();
    const d = only(r, 'MOD002');
    expect(d.message).toBe('models.claude.claude_sonnet_4_5 (claude-sonnet-4-5-20250929) was retired by Anthropic on 2026-11-30: requests to it fail');
    expect(d.hint).toBe('use models.claude.claude_sonnet_5_5 instead');
  });

  test('keys of models no longer served are known, and say they are retired', () => {
    const r = loadHcl(config(['claude_sonnet_4', 'claude_3_7_sonnet']), { today: '2026-11-29' });
    expect(r.diagnostics.filter((d) => d.code !== 'GRA012').map((d) => `${d.code}: ${d.message}`)).toEqual([
      'MOD002: models.claude.claude_sonnet_4 (claude-sonnet-4-20250514) was retired by Anthropic on 2026-06-15: requests to it fail',
      'MOD002: models.claude.claude_3_7_sonnet (claude-3-7-sonnet-20250219) was retired by Anthropic on 2026-02-19: requests to it fail',
    ]);
  });

  test('through a base_url (a proxy may still serve the id) it is only a warning', () => {
    const block = 'model "claude" {\n  provider = "anthropic"\n  base_url = "http://127.0.0.1:9/anthropic"\n}\n';
    const r = loadHcl(config(['claude_sonnet_4_5'], block), { today: '2026-12-01' });
    expect(modelCodes(r)).toEqual([expect.stringMatching(/^w:MOD002@/)]);
    expect(only(r, 'MOD002').message).toBe(
      'models.claude.claude_sonnet_4_5 (claude-sonnet-4-5-20250929) was retired by Anthropic on 2026-11-30: requests to it fail unless http://127.0.0.1:9/anthropic still serves it',
    );
    expect(r.graph).toBeDefined();
  });
});

describe('models without pricing (MOD003)', () => {
  test('a referenced key without a catalog price warns once: its cost counts as 0', () => {
    const src = config(['claude_haiku_5_5', 'claude_haiku_5_5']);
    const r = loadHcl(src, { today: '2026-11-29' });
    expect(modelCodes(r)).toEqual([`w:MOD003@${at(src, 'models.claude.claude_haiku_5_5')}`]);
    const d = only(r, 'MOD003');
    expect(d.message).toBe('no pricing for models.claude.claude_haiku_5_5 (claude-haiku-5-5): its cost counts as 0; add a pricing block');
    expect(d.hint).toBe('in model "claude": pricing "claude_haiku_5_5" { input = …, output = … } (USD per million tokens; 0 and 0 if it is free)');
    expect(r.graph!.models[0]!.pricing['claude_haiku_5_5']).toBeUndefined();
  });

  test('a pricing block silences it and is what the run will charge', () => {
    const block = 'model "claude" {\n  provider = "anthropic"\n  pricing "claude_haiku_5_5" {\n    input  = 0.1\n    output = 0.5\n  }\n}\n';
    const r = loadHcl(config(['claude_haiku_5_5'], block), { today: '2026-11-29' });
    expect(modelCodes(r)).toEqual([]);
    expect(r.graph!.models[0]!.pricing['claude_haiku_5_5']).toEqual({ input: 0.1, output: 0.5 });
  });

  test('an alias to an id the catalog does not know has no price; an OpenAI key without one warns too', () => {
    const block = 'model "claude" {\n  provider = "openai"\n  base_url = "http://localhost:11434/v1"\n  aliases  = { qwen = "qwen2.5:14b" }\n}\n';
    const src = config(['qwen', 'gpt_5_4', 'gpt_5'], block);
    const r = loadHcl(src, { today: '2026-11-29' });
    expect(modelCodes(r)).toEqual([`w:MOD003@${at(src, 'models.claude.qwen')}`, `w:MOD003@${at(src, 'models.claude.gpt_5_4')}`]);
  });

  test('an unpriced deprecated model gets both warnings; priced current ones get none', () => {
    const r = loadHcl(config(['claude_mythos_preview', 'claude_opus_5_5', 'claude_sonnet_4_6']), { today: '2026-06-01' });
    expect(r.diagnostics.map((d) => d.code).filter((c) => c !== 'GRA012')).toEqual(['MOD001', 'MOD003']);
  });
});

test('warnings reach the validate summary like any other', () => {
  const src = `model "claude" {\n  provider = "anthropic"\n}\nmission "m" {\n  commander {\n    model = models.claude.claude_haiku_5_5\n  }\n  task "t" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    model     = models.claude.claude_opus_4_5\n  }\n}\n`;
  const r = loadHcl(src, { today: '2026-11-29' });
  expect(modelCodes(r)).toEqual([`w:MOD003@${at(src, 'models.claude.claude_haiku_5_5')}`, `w:MOD001@${at(src, 'models.claude.claude_opus_4_5')}`]);
});
