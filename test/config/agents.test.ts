// Agents: global and mission-scoped, tools with provenance, the reserved name `worker`, reasoning.

import { afterAll, expect, test } from 'vitest';
import { at, codes, loadHcl, MODEL, only, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

test('an agent resolves its model, tools (toolsets keep their provenance) and skills', () => {
  const src = `${MODEL}toolset "web" {\n  tools = [builtins.http.get, builtins.http.post]\n}\nskill "s" {\n  description  = "d"\n  instructions = "i"\n}\nagent "expert" {\n  model       = models.claude.claude_sonnet_5_5\n  personality = "Careful"\n  tools       = [builtins.utils.current_time, toolsets.web, builtins.http.get]\n  skills      = [skills.s]\n  reasoning   = "high"\n  max_turns   = 12\n}\n`;
  const a = loadHcl(src).graph!.agents[0]!;
  expect(a.scope).toBe('global');
  expect(a.tools).toEqual([
    { ref: 'builtins.utils.current_time', via: 'agent:expert' },
    { ref: 'builtins.http.get', via: 'toolset:web' },
    { ref: 'builtins.http.post', via: 'toolset:web' },
  ]);
  expect(a.skills).toEqual([{ name: 's', via: 'agent:expert' }]);
  expect(a.reasoning).toBe('high');
  expect(a.maxTurns).toBe(12);
});

test('an agent named worker is SCH014 at its label', () => {
  const src = `${MODEL}agent "worker" {\n  model       = models.claude.claude_sonnet_5_5\n  personality = "p"\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`SCH014@${at(src, '"worker"')}`]);
});

test('model and personality are required (SCH003)', () => {
  const src = `agent "a" {\n}\n`;
  expect(codes(loadHcl(src))).toEqual(['SCH003@1:1', 'SCH003@1:1']);
});

test('reasoning must be low, medium or high (SCH010)', () => {
  const src = `${MODEL}agent "a" {\n  model       = models.claude.claude_sonnet_5_5\n  personality = "p"\n  reasoning   = "max"\n}\n`;
  expect(codes(loadHcl(src))).toEqual([`SCH010@${at(src, '"max"')}`]);
});

test('reasoning on a model without reasoning support is a SCH016 error with a hint', () => {
  const src = `model "o" {\n  provider = "openai"\n}\nagent "a" {\n  model       = models.o.gpt_4o\n  personality = "p"\n  reasoning   = "low"\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`SCH016@${at(src, '"low"')}`]);
  expect(only(r, 'SCH016').hint).toContain('pick a reasoning model');
  expect(r.graph).toBeUndefined();
});

test('reasoning is read case-insensitively, as the Go original reads it', () => {
  const src = `${MODEL}agent "a" {\n  model       = models.claude.claude_sonnet_5_5\n  personality = "p"\n  reasoning   = "HiGh"\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual(['w:GRA012@1:1']);
  expect(r.graph!.agents[0]!.reasoning).toBe('high');
});

test('reasoning on an Ollama model is a SCH016 error: Ollama takes no reasoning effort', () => {
  const src = `model "local" {\n  provider       = "ollama"\n  context_window = 8000\n}\nagent "a" {\n  model       = models.local.qwen3\n  personality = "p"\n  reasoning   = "medium"\n}\n`;
  const r = loadHcl(src);
  expect(codes(r)).toEqual([`SCH016@${at(src, '"medium"')}`]);
  expect(only(r, 'SCH016').message).toContain('Ollama models take no reasoning effort');
  expect(only(r, 'SCH016').hint).toContain('remove reasoning');
});

test('an agent with a reserved name still has its body checked', () => {
  const src = `${MODEL}agent "worker" {\n  model       = models.claude.claude_sonet_4_5\n  personality = "p"\n}\n`;
  expect(codes(loadHcl(src))).toEqual([`SCH014@${at(src, '"worker"')}`, `REF009@${at(src, 'models.claude.claude_sonet')}`]);
});
