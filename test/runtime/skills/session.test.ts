import { describe, expect, it } from 'vitest';
import type { Skill } from '../../../config/graph.js';
import { executeLoadSkill, loadSkillToolDefinition } from '../../../runtime/skills/loadSkillTool.js';
import { mcpApiName } from '../../../runtime/tools/mcp/toolInfo.js';
import { SkillSession } from '../../../runtime/skills/session.js';
import { folderSkill, hclSkill } from './fixtures.js';

const scraping = hclSkill('scraping', {
  instructions: 'Fetch with GET first. Use {{braces}} literally.',
  tools: [
    { ref: 'builtins.http.get', via: 'skill:scraping' },
    { ref: 'mcp.browser.all', via: 'skill:scraping' },
  ],
});
const review = folderSkill('code-review', {
  instructions: 'Read scripts/checklist.md first.',
  tools: [],
});
const report = hclSkill('report', { tools: [{ ref: 'builtins.http.get', via: 'skill:report' }, { ref: 'tools.pdf', via: 'skill:report' }] });

function textOf(outcome: Awaited<ReturnType<typeof executeLoadSkill>>): string {
  const part = outcome.result.content[0];
  return part?.type === 'text' ? part.text : '';
}

describe('SkillSession.load', () => {
  it('loads a given skill: its instructions and its tools via skill:<name>', () => {
    const session = new SkillSession([scraping, review]);
    const result = session.load('scraping');
    expect(result).toMatchObject({
      ok: true,
      instructions: 'Fetch with GET first. Use {{braces}} literally.',
      alreadyLoaded: false,
      tools: [
        { ref: 'builtins.http.get', via: 'skill:scraping' },
        { ref: 'mcp.browser.all', via: 'skill:scraping' },
      ],
    });
    expect(session.loaded()).toEqual(['scraping']);
  });

  it('tags tools with skill:<name> even when the graph gave another provenance', () => {
    const odd = hclSkill('odd', { tools: [{ ref: 'tools.x', via: 'task' }] });
    const result = new SkillSession([odd]).load('odd');
    expect(result.ok && result.tools).toEqual([{ ref: 'tools.x', via: 'skill:odd' }]);
  });

  it('refuses a skill the session was not given, listing the ones it can load', () => {
    const session = new SkillSession([scraping, review]);
    const result = session.load('report');
    expect(result).toMatchObject({ ok: false, name: 'report', available: ['scraping', 'code-review'] });
    expect(!result.ok && result.error).toContain('"report"');
    expect(!result.ok && result.error).toContain('scraping, code-review');
    expect(session.loaded()).toEqual([]);
  });

  it('suggests the skill whose name differs only by case or -/_', () => {
    const result = new SkillSession([scraping, review]).load('Code_Review');
    expect(result).toMatchObject({ ok: false, suggestion: 'code-review' });
    expect(!result.ok && result.error).toContain('did you mean "code-review"');
  });

  it('loading twice keeps one entry and reports it as already loaded', () => {
    const session = new SkillSession([scraping]);
    session.load('scraping');
    const again = session.load('scraping');
    expect(again).toMatchObject({ ok: true, alreadyLoaded: true });
    expect(session.loaded()).toEqual(['scraping']);
  });

  it('unlockedTools lists the tools of all loaded skills in load order without repeating a ref', () => {
    const session = new SkillSession([scraping, review, report]);
    expect(session.unlockedTools()).toEqual([]);
    session.load('report');
    session.load('scraping');
    expect(session.unlockedTools()).toEqual([
      { ref: 'builtins.http.get', via: 'skill:report' },
      { ref: 'tools.pdf', via: 'skill:report' },
      { ref: 'mcp.browser.all', via: 'skill:scraping' },
    ]);
  });
});

describe('SkillSession.restore', () => {
  it('restores the loaded skills and their tools from a stored list', () => {
    const before = new SkillSession([scraping, review, report]);
    before.load('code-review');
    before.load('report');
    const stored = JSON.parse(JSON.stringify(before.loaded())) as string[];

    const { session, dropped } = SkillSession.restore([scraping, review, report], stored);
    expect(dropped).toEqual([]);
    expect(session.loaded()).toEqual(['code-review', 'report']);
    expect(session.unlockedTools()).toEqual(before.unlockedTools());
    expect(session.load('report')).toMatchObject({ ok: true, alreadyLoaded: true });
  });

  it('drops stored names the session no longer has, and says which', () => {
    const { session, dropped } = SkillSession.restore([scraping], ['gone', 'scraping']);
    expect(dropped).toEqual(['gone']);
    expect(session.loaded()).toEqual(['scraping']);
  });
});

describe('load_skill tool', () => {
  it('is defined as load_skill with a required string name', async () => {
    const def = loadSkillToolDefinition();
    expect(def.name).toBe('load_skill');
    expect(def.description.length).toBeGreaterThan(20);
    expect(def.inputSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('returns the instructions and names the new tools by their API names', async () => {
    const session = new SkillSession([scraping]);
    const outcome = await executeLoadSkill(session, { name: 'scraping' });
    expect(outcome.result.isError).toBe(false);
    const text = textOf(outcome);
    expect(text).toContain('Fetch with GET first. Use {{braces}} literally.');
    expect(text).toContain('builtins_http_get, mcp_browser_*');
    expect(outcome.newTools).toEqual(scraping.tools);
  });

  it('adds no tools when the skill was already loaded', async () => {
    const session = new SkillSession([scraping]);
    await executeLoadSkill(session, { name: 'scraping' });
    const again = await executeLoadSkill(session, { name: 'scraping' });
    expect(again.result.isError).toBe(false);
    expect(again.newTools).toEqual([]);
  });

  it('tells the model where a folder skill lives so its relative paths make sense', async () => {
    const text = textOf(await executeLoadSkill(new SkillSession([review]), { name: 'code-review' }));
    expect(text).toContain('/project/skills/code-review');
    expect(text).not.toContain('Tools added');
  });

  it('answers an unknown skill with an error result listing the available ones', async () => {
    const outcome = await executeLoadSkill(new SkillSession([scraping, review]), { name: 'nope' });
    expect(outcome.result.isError).toBe(true);
    expect(textOf(outcome)).toContain('scraping, code-review');
    expect(outcome.newTools).toEqual([]);
  });

  it('answers an agent without skills with "none"', async () => {
    const outcome = await executeLoadSkill(new SkillSession([]), { name: 'x' });
    expect(textOf(outcome)).toContain('Skills you can load: none');
  });

  it.each([[undefined], [{}], [{ name: 3 }], [{ name: '' }], [{ name: 'scraping', extra: 1 }], ['scraping']])(
    'rejects malformed input %j as an error result, not a throw',
    async (input) => {
      const session = new SkillSession([scraping]);
      const outcome = await executeLoadSkill(session, input);
      expect(outcome.result.isError).toBe(true);
      expect(textOf(outcome)).toContain('load_skill takes {"name": "<skill name>"}');
      expect(session.loaded()).toEqual([]);
    },
  );
});

describe('load_skill names the tools it unlocks as the model will call them', () => {
  it('uses the registry naming for MCP tools, shortening over-long names the same way', async () => {
    const long = `deploy_${'service_'.repeat(10)}now`;
    const mcp = hclSkill('ops', { tools: [{ ref: `mcp.ops.${long}`, via: 'skill:ops' }, { ref: 'mcp.logs.all', via: 'skill:ops' }] });
    const text = textOf(await executeLoadSkill(new SkillSession([mcp]), { name: 'ops' }));
    expect(text).toContain(`${mcpApiName('ops', long)}, mcp_logs_*`);
    expect(mcpApiName('ops', long).length).toBeLessThan(`mcp_ops_${long}`.length);
  });
});

describe('load_skill on an MCP prompt', () => {
  const prompt = { server: 'every', name: 'args-prompt', arguments: [{ name: 'city', required: true }] };
  const promptSkill: Skill = {
    name: 'mcp.every.prompts.args-prompt',
    description: 'weather (arguments: city, required)',
    instructions: '',
    tools: [],
    origin: { kind: 'mcp', file: '/project/main.hcl', line: 1 },
    prompt,
  };

  it('gets the prompt with the arguments and counts it loaded only when the get succeeds', async () => {
    const session = new SkillSession([promptSkill]);
    const calls: unknown[] = [];
    const failing = async (_p: typeof prompt, args: Readonly<Record<string, string>>) => {
      calls.push(args);
      return { content: [{ type: 'text' as const, text: 'server said no' }], isError: true };
    };
    const failed = await executeLoadSkill(session, { name: promptSkill.name, arguments: { city: 'Oslo' } }, failing);
    expect(failed.result.isError).toBe(true);
    expect(session.loaded()).toEqual([]);
    const ok = async (_p: typeof prompt, args: Readonly<Record<string, string>>) => ({ content: [{ type: 'text' as const, text: `weather in ${args.city}` }], isError: false });
    const loaded = await executeLoadSkill(session, { name: promptSkill.name, arguments: { city: 'Oslo' } }, ok);
    expect(loaded.result.isError).toBe(false);
    expect(loaded.result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')).toMatch(/loaded: a prompt of the tool server mcp\.every[\s\S]*weather in Oslo/);
    expect(session.loaded()).toEqual([promptSkill.name]);
    expect(calls).toEqual([{ city: 'Oslo' }]);
  });

  it('refuses arguments for a skill that is not a prompt', async () => {
    const outcome = await executeLoadSkill(new SkillSession([scraping]), { name: 'scraping', arguments: { a: 'b' } });
    expect(outcome.result.isError).toBe(true);
    expect(textOf(outcome)).toContain('takes no arguments');
  });

  it('offers arguments in the tool definition only when asked', () => {
    expect(Object.keys(loadSkillToolDefinition().inputSchema.properties as object)).toEqual(['name']);
    expect(Object.keys(loadSkillToolDefinition(true).inputSchema.properties as object)).toEqual(['name', 'arguments']);
  });
});
