// References: traversals in reference positions keep their identity; strings are not references;
// unknown names get did-you-mean hints; each stage sees only the namespaces resolved before it.

import { afterAll, describe, expect, test } from 'vitest';
import { at, codes, loadHcl, MODEL, only, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const task = (tools: string, extra = '') => withMission(`  task "a" {\n    objective = "x"\n    tools     = ${tools}\n${extra}  }\n`);

describe('reference syntax', () => {
  test('a quoted tool ref is a REF004 warning with the hint to drop the quotes, and read as the ref', () => {
    const src = task('["builtins.http.get"]');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`w:REF004@${at(src, '"builtins.http.get"')}`]);
    expect(r.diagnostics[0]!.severity).toBe('warning');
    expect(r.diagnostics[0]!.hint).toBe('write builtins.http.get without quotes (squadron fmt does it)');
    expect(r.graph!.missions[0]!.tasks[0]!.worker!.tools.map((t) => t.ref)).toEqual(['builtins.http.get']);
  });

  test('a quoted task name in depends_on is REF004 too', () => {
    const src = withMission(`  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n  task "b" {\n    objective  = "y"\n    tools      = [builtins.http.get]\n    depends_on = ["a"]\n  }\n`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF004@${at(src, '["a"]') .replace(/:(\d+)$/, (_, c) => `:${Number(c) + 1}`)}`]);
    expect(r.diagnostics[0]!.hint).toBe('write tasks.a without quotes');
  });

  test('a quoted model ref is a REF004 warning', () => {
    const src = `${MODEL}agent "a" {\n  model       = "models.claude.claude_haiku_4_5"\n  personality = "p"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['w:GRA012@1:1', `w:REF004@${at(src, '"models.claude')}`]);
    expect(r.diagnostics.find((d) => d.code === 'REF004')!.severity).toBe('warning');
    expect(r.diagnostics.find((d) => d.code === 'REF004')!.hint).toBe('write models.claude.claude_haiku_4_5 without quotes (squadron fmt does it)');
  });

  test('a tool list that is not a list is SCH007 with the bracketed form as hint', () => {
    const src = task('builtins.http.get');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH007@${at(src, 'builtins.http.get')}`]);
    expect(r.diagnostics[0]!.hint).toBe('write tools = [builtins.http.get]');
  });

  test('an incomplete reference is REF006', () => {
    const src = task('[builtins.http]');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF006@${at(src, 'builtins.http]')}`]);
  });

  test('a computed index in a reference is REF006', () => {
    const src = task('[builtins.http[0]]');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF006@${at(src, '[0]')}`]);
  });
});

describe('unknown names', () => {
  test('an unknown builtin tool is REF003 with did-you-mean', () => {
    const src = task('[builtins.http.gett]');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'builtins.http.gett')}`]);
    expect(r.diagnostics[0]!.hint).toBe('did you mean builtins.http.get?');
  });

  test('an unknown namespace is REF001 with did-you-mean', () => {
    const src = task('[tool.x]');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF001@${at(src, 'tool.x')}`]);
    expect(r.diagnostics[0]!.hint).toBe('did you mean tools?');
  });

  test('plugins.<p> without a plugin block is REF003 with a hint to declare it', () => {
    const src = task('[plugins.playwright.all]');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'plugins')}`]);
    expect(r.diagnostics[0]!.message).toBe('unknown plugin "playwright"');
    expect(r.diagnostics[0]!.hint).toMatch(/declare it: plugin "playwright"/);
  });

  test('an unknown toolset is REF003', () => {
    const src = `toolset "browsing" {\n  tools = [builtins.http.get]\n}\n${task('[toolsets.browsng]')}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'toolsets.browsng]')}`]);
    expect(r.diagnostics[0]!.message).toBe('unknown toolset "browsng"');
    expect(r.diagnostics[0]!.hint).toBe('did you mean toolsets.browsing?');
  });

  test('an unknown model block and an unknown model key are REF003 and REF009', () => {
    const src = `${MODEL}agent "a" {\n  model       = models.claud.claude_haiku_4_5\n  personality = "p"\n}\nagent "b" {\n  model       = models.claude.claude_haiku_45\n  personality = "p"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'models.claud.')}`, `REF009@${at(src, 'models.claude.claude_haiku_45')}`]);
    expect(r.diagnostics[0]!.hint).toBe('did you mean models.claude?');
    expect(r.diagnostics[1]!.hint).toBe('did you mean models.claude.claude_haiku_4_5?');
  });

  test('a reference of the wrong kind is REF005', () => {
    const src = task('[models.claude.claude_haiku_4_5]');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF005@${at(src, 'models.claude.claude_haiku_4_5]')}`]);
  });

  test('an unknown agent in a task is REF003 with did-you-mean', () => {
    const src = `${MODEL}agent "researcher" {\n  model       = models.claude.claude_haiku_4_5\n  personality = "p"\n}\n${withMission('  task "a" {\n    objective = "x"\n    agents    = [agents.reseacher]\n  }\n').slice(MODEL.length)}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'agents.reseacher')}`]);
    expect(r.diagnostics[0]!.hint).toBe('did you mean agents.researcher?');
  });

  test('a reference to a block that already failed is not reported again', () => {
    const src = `model "broken" {\n  provider = "nope"\n}\nagent "a" {\n  model       = models.broken.claude_haiku_4_5\n  personality = "p"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH010@${at(src, '"nope"')}`]);
  });
});

describe('stage visibility', () => {
  test('a variable default may not reference anything (REF002)', () => {
    const src = `variable "a" {\n  default = "x"\n}\nvariable "b" {\n  default = vars.a\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF002@${at(src, 'vars.a')}`]);
    expect(r.diagnostics[0]!.message).toBe('"vars" cannot be referenced in a variable block');
  });

  test('a skill may not reference agents, which are resolved later (REF002)', () => {
    const src = `skill "s" {\n  description  = "d"\n  instructions = "i"\n  tools        = [agents.x]\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF002@${at(src, 'agents.x')}`]);
    expect(r.diagnostics[0]!.hint).toBe('agents can be referenced in mission blocks');
  });

  test('a toolset may not reference models (REF002) and a model may not reference tools (REF002)', () => {
    const src = `${MODEL}toolset "t" {\n  tools = [models.claude.claude_haiku_4_5]\n}\nmodel "o" {\n  provider = "openai"\n  base_url = tools.x\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF002@${at(src, 'models.claude.claude_haiku_4_5')}`, `REF002@${at(src, 'tools.x')}`]);
  });

  test('tasks.* outside a mission is REF002', () => {
    const src = `${MODEL}agent "a" {\n  model       = models.claude.claude_haiku_4_5\n  personality = "\${tasks.x}"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF002@${at(src, 'tasks.x')}`]);
  });

  test('a reference used as a value is REF005', () => {
    const src = withMission(`  description = "uses \${toolsets.x}"\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF005@${at(src, 'toolsets.x')}`]);
  });
});

describe('variables in values', () => {
  test('an undeclared variable is REF003 with a hint', () => {
    const src = `variable "region" {\n  default = "eu"\n}\nmodel "o" {\n  provider = "openai"\n  base_url = "https://\${vars.regin}.example.com"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'vars.regin')}`]);
    expect(r.diagnostics[0]!.hint).toBe('did you mean vars.region?');
  });

  test('a declared variable without a value is REF007 at the use, saying how to set it', () => {
    const src = `variable "key" {\n  secret = true\n}\nmodel "o" {\n  provider = "openai"\n  api_key  = vars.key\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF007@${at(src, 'vars.key')}`]);
    expect(r.diagnostics[0]!.message).toBe('variable "key" has no value: pass --var key=… or set SQUADRON_VAR_key');
  });

  test("with unsetVariables: 'unknown' (validate) a variable without a value is one warning, and the graph loads", () => {
    const src = `variable "key" {\n  secret = true\n}\nvariable "region" {\n  default = "eu"\n}\nmodel "o" {\n  provider = "openai"\n  api_key  = vars.key\n  base_url = "https://\${vars.region}.example.com/\${vars.key}"\n}\n`;
    const r = loadHcl(src, { unsetVariables: 'unknown' });
    expect(codes(r)).toEqual(['w:GRA012@1:1', `w:REF007@${at(src, 'vars.key')}`]);
    expect(r.diagnostics[1]!.message).toBe(
      'variable "key" has no value, so the 2 values that use it are not checked; run needs one: pass --var key=… or set SQUADRON_VAR_key',
    );
    expect(r.graph).toBeDefined();
    // An unknown value is unchecked, not an error; an undeclared variable still is one.
    const undeclared = loadHcl(src.replace('api_key  = vars.key', 'api_key  = vars.kye'), { unsetVariables: 'unknown' });
    expect(codes(undeclared)).toEqual([`REF003@${at(src, 'vars.key')}`, `w:REF007@${at(src, 'vars.key', 1)}`]);
  });

  test("with unsetVariables: 'unknown' a text that needs a missing variable reads <vars.name>: its block is kept", () => {
    const src = `variable "persona" {}\nmodel "o" {\n  provider = "openai"\n  api_key  = "k"\n}\nagent "helper" {\n  model       = models.o.gpt_5_mini\n  personality = "Calm. \${vars.persona}"\n}\nmission "m" {\n  commander {\n    model = models.o.gpt_5_mini\n  }\n  task "a" {\n    objective = "x"\n    agents    = [agents.helper]\n  }\n}\n`;
    const r = loadHcl(src, { unsetVariables: 'unknown' });
    expect(codes(r)).toEqual([`w:REF007@${at(src, 'vars.persona')}`]);
    expect(r.graph?.agents.map((a) => [a.name, a.personality])).toEqual([['helper', '<vars.persona>']]);
    // Without the mode the same config is an error at the use, and only there: the task that
    // loses its one agent is not also "without a work source" (GRA002), whether the agent is
    // listed on the task or on the mission.
    expect(codes(loadHcl(src))).toEqual([`REF007@${at(src, 'vars.persona')}`]);
    const onMission = src.replace('  task "a" {', '  agents = [agents.helper]\n  task "a" {').replace('    agents    = [agents.helper]\n', '');
    expect(codes(loadHcl(onMission))).toEqual([`REF007@${at(onMission, 'vars.persona')}`]);
  });

  test('an unknown name inside a value is REF001', () => {
    const src = `model "o" {\n  provider = "openai"\n  api_key  = var.key\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF001@${at(src, 'var.key')}`]);
    expect(r.diagnostics[0]!.hint).toBe('variables are read as vars.<name>');
  });

  test('for-expression variables are local, not references', () => {
    const src = `variable "names" {\n  default = "a,b"\n}\n${MODEL}agent "x" {\n  model       = models.claude.claude_haiku_4_5\n  personality = join(" ", [for n in split(",", vars.names) : upper(n)])\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['w:GRA012@1:1']);
    expect(r.graph!.agents[0]!.personality).toBe('A B');
  });
});

test('models keep their block name: two blocks of one provider stay distinct', () => {
  const src = `model "prod" {\n  provider = "anthropic"\n  api_key = "a"\n}\nmodel "dev" {\n  provider = "anthropic"\n  api_key = "b"\n  aliases = { fast = "claude-haiku-4-5-20251001" }\n}\nagent "p" {\n  model = models.prod.claude_sonnet_4_6\n  personality = "p"\n}\nagent "d" {\n  model = models.dev.fast\n  personality = "p"\n}\n`;
  const r = loadHcl(src);
  expect(r.graph!.agents.map((a) => a.model)).toEqual([
    { block: 'prod', key: 'claude_sonnet_4_6', provider: 'anthropic', apiModel: 'claude-sonnet-4-6', supportsReasoning: true },
    { block: 'dev', key: 'fast', provider: 'anthropic', apiModel: 'claude-haiku-4-5-20251001', supportsReasoning: true },
  ]);
  void only;
});
