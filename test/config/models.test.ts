// Model blocks: providers, catalog keys and aliases, pricing, replay cassettes, and a missing
// api_key being recorded rather than rejected.

import { afterAll, expect, test } from 'vitest';
import { at, codes, loadFiles, loadHcl, only, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

test('a model block resolves defaults, aliases and pricing overrides', () => {
  const src = `model "oa" {\n  provider = "openai"\n  base_url = "http://localhost:8080/v1"\n  aliases  = { local = "my-model", mini = "gpt-4.1-mini" }\n  max_output_tokens = 4096\n  timeout_seconds   = 30\n  max_retries       = 0\n  pricing "gpt_5" {\n    input  = 1\n    output = 2\n  }\n}\n`;
  const r = loadHcl(src);
  const m = r.graph!.models[0]!;
  expect(m.apiKey).toBeUndefined();
  expect(m.baseUrl).toBe('http://localhost:8080/v1');
  expect(m.maxOutputTokens).toBe(4096);
  expect(m.timeoutSeconds).toBe(30);
  expect(m.maxRetries).toBe(0);
  expect(m.pricing['gpt_5']).toEqual({ input: 1, output: 2 });
  expect(m.pricing['gpt_4o']).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
  // An alias to a catalog id inherits its price; an alias to an unknown id has none.
  expect(m.pricing['mini']).toEqual({ input: 0.4, output: 1.6, cacheRead: 0.1 });
  expect(m.pricing['local']).toBeUndefined();
  expect(m.location).toEqual({ file: `${r.dir}/main.hcl`, line: 1, column: 1 });
});

test('pricing for a key the block does not offer is REF009 at the label', () => {
  const src = `model "a" {\n  provider = "anthropic"\n  pricing "gpt_5" {\n    input  = 1\n    output = 2\n  }\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`REF009@${at(src, '"gpt_5"')}`]);
});

test('pricing needs input and output, and no negative prices', () => {
  const src = `model "a" {\n  provider = "anthropic"\n  pricing "claude_sonnet_4" {\n    input  = -1\n  }\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`SCH003@${at(src, 'pricing')}`, `SCH013@${at(src, '-1')}`]);
});

test('replay needs a cassette, resolved relative to the file; a missing one is a warning', () => {
  const src = `model "r" {\n  provider = "replay"\n  cassette = "tapes/run.jsonl"\n}\n`;
  const r = loadFiles({ 'sub/models.hcl': src, 'sub/tapes/run.jsonl': '' });
  expect(r.graph!.models[0]!.cassette).toBe(`${r.dir}/sub/tapes/run.jsonl`);
  const missing = loadHcl(src);
  expect(codes(missing)).toContain(`w:FIL007@${at(src, '"tapes/run.jsonl"')}`);
  const none = `model "r" {\n  provider = "replay"\n}\n`;
  expect(codes(loadHcl(none))).toEqual(['SCH003@1:1']);
});

test('cassette on a non-replay provider is SCH012', () => {
  const src = `model "a" {\n  provider = "anthropic"\n  cassette = "x.jsonl"\n}\n`;
  expect(codes(loadHcl(src))).toEqual([`SCH012@${at(src, 'cassette')}`]);
});

test('a gemini block takes stream = false; stream on another provider is SCH012', () => {
  const gemini = loadHcl(`model "g" {\n  provider = "gemini"\n  stream   = false\n}\n`);
  expect(codes(gemini).filter((c) => !c.startsWith('w:'))).toEqual([]);
  expect(gemini.graph!.models[0]!.stream).toBe(false);
  expect(gemini.graph!.models[0]!.pricing['gemini_3_flash_preview']).toEqual({ input: 0.5, output: 3, cacheRead: 0.05 });
  const src = `model "a" {\n  provider = "anthropic"\n  stream   = false\n}\n`;
  expect(codes(loadHcl(src))).toEqual([`SCH012@${at(src, 'stream')}`]);
});

test('a base_url that is not http(s) is SCH010', () => {
  const src = `model "a" {\n  provider = "openai"\n  base_url = "localhost:8080"\n}\n`;
  expect(codes(loadHcl(src))).toEqual([`SCH010@${at(src, '"localhost')}`]);
});

test('replay accepts any catalog key of any provider', () => {
  const src = `model "r" {\n  provider = "replay"\n  cassette = "c.jsonl"\n}\nagent "a" {\n  model = models.r.gpt_5_mini\n  personality = "p"\n}\nagent "b" {\n  model = models.r.claude_haiku_4_5\n  personality = "p"\n}\n`;
  const r = loadFiles({ 'main.hcl': src, 'c.jsonl': '' });
  expect(r.graph!.agents.map((a) => a.model.apiModel)).toEqual(['gpt-5-mini', 'claude-haiku-4-5-20251001']);
});

test('an openai key on an anthropic block is REF009 with the block named', () => {
  const src = `model "a" {\n  provider = "anthropic"\n}\nagent "x" {\n  model = models.a.gpt_5\n  personality = "p"\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`REF009@${at(src, 'models.a.gpt_5')}`]);
  expect(only(r, 'REF009').message).toBe('model block "a" (anthropic) has no model "gpt_5"');
});

test('api: responses against OpenAI itself, chat_completions through another base_url, as written when set', () => {
  const src = `model "own" {\n  provider = "openai"\n}\nmodel "proxy" {\n  provider = "openai"\n  base_url = "http://localhost:8080/v1"\n}\nmodel "forced" {\n  provider = "openai"\n  base_url = "http://localhost:8080/v1"\n  api      = "responses"\n}\nmodel "official" {\n  provider = "openai"\n  base_url = "https://api.openai.com/v1"\n}\nmodel "c" {\n  provider = "anthropic"\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual(['w:GRA012@1:1']);
  expect(r.graph!.models.map((m) => [m.name, m.api])).toEqual([
    ['own', 'responses'],
    ['proxy', 'chat_completions'],
    ['forced', 'responses'],
    ['official', 'responses'],
    ['c', undefined],
  ]);
});

test('api is SCH010 when unknown and SCH012 on a provider with one API', () => {
  const src = `model "a" {\n  provider = "openai"\n  api      = "completions"\n}\nmodel "b" {\n  provider = "anthropic"\n  api      = "responses"\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`SCH010@${at(src, '"completions"')}`, `SCH012@${at(src, 'api      = "responses"')}`]);
  expect(only(r, 'SCH010').hint).toBeDefined();
});

test('an ollama block needs no key, defaults to 127.0.0.1:11434 and Chat Completions, and takes any model name', () => {
  const src = `model "local" {\n  provider = "ollama"\n  aliases  = { small = "llama3.2:3b" }\n}\nmission "m" {\n  commander { model = models.local.qwen3 }\n  task "t" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    model     = models.local.small\n  }\n}\n`;
  const r = loadHcl(src);
  const m = r.graph!.models[0]!;
  expect(m).toMatchObject({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', api: 'chat_completions' });
  expect(m.apiKey).toBeUndefined();
  const mission = r.graph!.missions[0]!;
  expect(mission.commander.model.apiModel).toBe('qwen3');
  expect(mission.tasks[0]!.worker!.model.apiModel).toBe('llama3.2:3b');
  // No catalog knows a local model's window: each model used warns once (MOD005), none of pricing.
  expect(codes(r)).toEqual([`w:MOD005@${at(src, 'models.local.qwen3')}`, `w:MOD005@${at(src, 'models.local.small')}`]);
  expect(r.diagnostics[0]!.message).toBe('the context window of models.local.qwen3 (qwen3) is unknown: 32,000 tokens is assumed');
  expect(r.diagnostics[0]!.hint).toContain('context_window');
});

test('an ollama block with context_window warns of nothing', () => {
  const src = `model "local" {\n  provider       = "ollama"\n  base_url       = "http://gpu-box:11434"\n  context_window = 32768\n}\nmission "m" {\n  commander { model = models.local.qwen3 }\n  task "t" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual([]);
  expect(r.graph!.models[0]!.baseUrl).toBe('http://gpu-box:11434');
});

test('a dollar budget over an Ollama model does not warn of missing pricing: a local model is free', () => {
  const src = `model "local" {\n  provider       = "ollama"\n  context_window = 32768\n}\nmission "m" {\n  commander { model = models.local.qwen3 }\n  budget {\n    dollars = 1\n  }\n  task "t" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n}\n`;
  expect(codes(loadHcl(src))).toEqual([]);
});
