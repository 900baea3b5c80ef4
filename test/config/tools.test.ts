// Tool sources: custom tools wrapping builtins.http.*, MCP servers, and toolsets (expanded in
// place, order kept, first occurrence wins, never nested).

import { afterAll, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { at, codes, loadFiles, loadHcl, only, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

describe('custom tools', () => {
  const weather = `tool "weather" {\n  implements  = builtins.http.get\n  description = "Weather for a city"\n  inputs = {\n    city = string("City name", true)\n    days = integer("Days ahead")\n    tags = list(string, "Tags")\n    loc  = object({ lat = number("Latitude", true) }, "Where")\n  }\n  url     = "https://wttr.in/\${inputs.city}?days=\${inputs.days}"\n  headers = { Accept = "application/json" }\n}\n`;

  test('a custom tool keeps its inputs (shorthand) and field expressions', () => {
    const r = loadHcl(weather);
    const t = r.graph!.customTools[0]!;
    expect(t.ref).toBe('tools.weather');
    expect(t.implements).toBe('builtins.http.get');
    expect(t.idempotent).toBe(true);
    expect(t.inputs).toEqual([
      { name: 'city', type: 'string', description: 'City name', required: true },
      { name: 'days', type: 'integer', description: 'Days ahead', required: false },
      { name: 'tags', type: 'array', description: 'Tags', required: false, items: { name: '', type: 'string', description: '', required: false } },
      { name: 'loc', type: 'object', description: 'Where', required: false, properties: [{ name: 'lat', type: 'number', description: 'Latitude', required: true }] },
    ]);
    expect(Object.keys(t.fields)).toEqual(['url', 'headers']);
    expect(t.fields['url']!.kind).toBe('Template');
  });

  test('the verbose inputs block is equivalent', () => {
    const src = `tool "w" {\n  implements = builtins.http.post\n  inputs {\n    field "city" {\n      type        = "string"\n      description = "City"\n      required    = true\n    }\n    field "n" {\n      type = "bool"\n    }\n  }\n  url  = "https://x/\${inputs.city}"\n  body = { n = inputs.n }\n}\n`;
    const t = loadHcl(src).graph!.customTools[0]!;
    expect(t.inputs).toEqual([
      { name: 'city', type: 'string', description: 'City', required: true },
      { name: 'n', type: 'boolean', description: '', required: false },
    ]);
    expect(t.idempotent).toBe(false);
    expect(t.description).toBe('Send an HTTP POST request and return the status, headers and body.');
  });

  test('implements outside builtins.http.* is REF010', () => {
    const src = `tool "t" {\n  implements = builtins.utils.sleep\n  seconds = 1\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF010@${at(src, 'builtins.utils.sleep')}`]);
  });

  test('a quoted implements is read as the reference, with a REF004 warning (Go configs write it so)', () => {
    const src = `tool "t" {\n  implements = "builtins.http.get"\n  url = "https://x"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['w:GRA012@1:1', `w:REF004@${at(src, '"builtins.http.get"')}`]);
    expect(r.graph!.customTools[0]!.implements).toBe('builtins.http.get');
  });

  test('an attribute that is not a field of the implemented builtin is SCH001', () => {
    const src = `tool "t" {\n  implements = builtins.http.get\n  url  = "https://x"\n  body = "nope"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH001@${at(src, 'body')}`]);
  });

  test('a required field of the builtin left unset is SCH003', () => {
    const src = `tool "t" {\n  implements = builtins.http.get\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['SCH003@1:1']);
    expect(r.diagnostics[0]!.message).toBe('tool "t" implements builtins.http.get but does not set its required field "url"');
  });

  test('fields may use inputs and vars: an unknown input is REF003, another namespace is REF014', () => {
    const src = `variable "host" {\n  default = "x"\n}\ntool "t" {\n  implements = builtins.http.get\n  inputs = { city = string("c", true) }\n  url = "https://\${vars.host}/\${inputs.cty}/\${tools.t}"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'inputs.cty')}`, `REF014@${at(src, 'tools.t')}`]);
    expect(r.diagnostics[0]!.hint).toBe('did you mean inputs.city?');
    expect(r.diagnostics[1]!.message).toBe('the field "url" of tool "t" can only use inputs.<name> and vars.<name>; it references tools.t');
  });

  test('a header built from a secret variable is kept as an expression, not as the secret', () => {
    const src = `variable "api_token" {\n  secret = true\n}\ntool "t" {\n  implements = builtins.http.get\n  url     = "https://api.example.com/items"\n  headers = { Authorization = "Bearer \${vars.api_token}" }\n}\n`;
    const r = loadHcl(src, { env: { SQUADRON_VAR_api_token: 'tok-s3cret-value' } });
    expect(codes(r)).toEqual(['w:GRA012@1:1']);
    const t = r.graph!.customTools[0]!;
    expect(t.fields['headers']!.kind).toBe('Object');
    expect(JSON.stringify(t.fields)).not.toContain('tok-s3cret-value');
  });

  test('a field reading an unknown variable is REF003, one without a value is REF007', () => {
    const src = `variable "api_token" {\n  secret = true\n}\ntool "t" {\n  implements = builtins.http.get\n  url     = "https://\${vars.hots}/items"\n  headers = { Authorization = "Bearer \${vars.api_token}" }\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'vars.hots')}`, `REF007@${at(src, 'vars.api_token')}`]);
  });

  test('a nested splat in a field is checked: its element is not a name, an index inside it is', () => {
    const src = `tool "t" {\n  implements = builtins.http.post\n  inputs = { rows = list(object({ cells = list(string) })) }\n  url  = "https://x"\n  body = { a = inputs.rows[*].cells[*], b = inputs.rows[*].cells[*][vars.col] }\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'vars.col')}`]);
  });

  test('a known field value of the wrong type is SCH007', () => {
    const src = `tool "t" {\n  implements = builtins.http.get\n  url = ["https://x"]\n}\n`;
    expect(codes(loadHcl(src))).toEqual([`SCH007@${at(src, '["https')}`]);
  });

  test('a malformed field schema is SCH017; shorthand and block together is SCH012', () => {
    const src = `tool "t" {\n  implements = builtins.http.get\n  url = "https://x"\n  inputs = {\n    a = "string"\n    b = list("desc")\n  }\n  inputs {\n  }\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH012@${at(src, 'inputs = {')}`]);
    const src2 = `tool "t" {\n  implements = builtins.http.get\n  url = "https://x"\n  inputs = {\n    a = "string"\n    b = list("desc")\n    c = string("d", { required = true, default = 1 })\n  }\n}\n`;
    expect(codes(loadHcl(src2))).toEqual([`SCH017@${at(src2, '"string"')}`, `SCH017@${at(src2, '"desc"')}`, `SCH017@${at(src2, 'default')}`]);
  });
});

describe('mcp servers', () => {
  test('stdio and http servers', () => {
    const src = `mcp "fs" {\n  command = "npx"\n  args    = ["-y", "server-fs", "."]\n  env     = { DEBUG = "1" }\n}\nmcp "remote" {\n  url     = "https://mcp.example.com/mcp"\n  headers = { Authorization = "Bearer x" }\n}\n`;
    const g = loadHcl(src).graph!;
    expect(g.mcpServers.map((s) => s.transport)).toEqual([
      { kind: 'stdio', command: 'npx', args: ['-y', 'server-fs', '.'], env: { DEBUG: '1' } },
      { kind: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
    ]);
  });

  test('an optional description is kept with either transport; a non-string one is SCH007', () => {
    const src = `mcp "fs" {\n  description = "Files of the project"\n  command     = "npx"\n}\nmcp "remote" {\n  url = "https://mcp.example.com/mcp"\n}\n`;
    const g = loadHcl(src).graph!;
    expect(g.mcpServers.map((s) => [s.name, s.description])).toEqual([
      ['fs', 'Files of the project'],
      ['remote', undefined],
    ]);
    const bad = `mcp "fs" {\n  description = ["x"]\n  command     = "npx"\n}\n`;
    expect(codes(loadHcl(bad)).map((c) => c.split('@')[0])).toEqual(['SCH007']);
  });

  test('command and url together is SCH012; neither is SCH003', () => {
    const src = `mcp "a" {\n  command = "x"\n  url     = "https://x"\n}\nmcp "b" {\n}\n`;
    expect(codes(loadHcl(src))).toEqual([`SCH012@${at(src, 'url')}`, `SCH003@${at(src, 'mcp "b"')}`]);
  });

  test('args/env only with command, headers only with url (SCH012)', () => {
    const src = `mcp "a" {\n  url  = "https://x"\n  args = ["1"]\n}\nmcp "b" {\n  command = "x"\n  headers = { A = "b" }\n}\n`;
    expect(codes(loadHcl(src))).toEqual([`SCH012@${at(src, 'args')}`, `SCH012@${at(src, 'headers')}`]);
  });

  test('mcp tool refs accept any tool name and keep their positions for a later check', () => {
    const src = `mcp "fs" {\n  command = "x"\n}\n${withMission('  task "a" {\n    objective = "x"\n    tools = [mcp.fs.read_file, mcp.fs.all, mcp.fs["odd.name"]]\n  }\n')}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.tasks[0]!.worker!.tools.map((t) => t.ref)).toEqual(['mcp.fs.read_file', 'mcp.fs.all', 'mcp.fs.odd.name']);
    expect(r.graph!.mcpToolRefs!.map((m) => `${m.server}.${m.tool}@${m.range.start.line}:${m.range.start.column}`)).toEqual([
      `fs.read_file@${at(src, 'mcp.fs.read_file')}`,
      `fs.all@${at(src, 'mcp.fs.all')}`,
      `fs.odd.name@${at(src, 'mcp.fs["odd')}`,
    ]);
  });

  test('roots are folders resolved against the project root; a missing one or a file is FIL001', () => {
    const src = `mcp "fs" {\n  command = "x"\n  roots   = ["data", "."]\n}\n`;
    const r = loadFiles({ 'main.hcl': src, 'data/a.txt': 'a' });
    expect(codes(r)).toEqual(['w:GRA012@1:1']); // no mission: not this test's business
    expect(r.graph!.mcpServers[0]!.roots).toEqual([join(r.dir, 'data'), r.dir]);
    const bad = `mcp "fs" {\n  command = "x"\n  roots   = ["nope", "data/a.txt"]\n}\n`;
    const broken = loadFiles({ 'main.hcl': bad, 'data/a.txt': 'a' });
    expect(codes(broken)).toEqual([`FIL001@${at(bad, '["nope"')}`, `FIL001@${at(bad, '["nope"')}`]);
    expect(broken.diagnostics.map((d) => d.message.split(' (')[0])).toEqual(['mcp root "nope" does not exist', 'mcp root "data/a.txt" is not a folder']);
  });

  test('timeout and max_timeout are durations: one unit, more than 0, max_timeout not shorter than timeout', () => {
    const src = `mcp "fs" {\n  command     = "x"\n  timeout     = "90s"\n  max_timeout = "1h"\n}\nmcp "b" {\n  command     = "x"\n  timeout     = "1.5m"\n}\n`;
    const g = loadHcl(src).graph!;
    expect(g.mcpServers.map((s) => [s.timeoutMs, s.maxTimeoutMs])).toEqual([
      [90_000, 3_600_000],
      [90_000, undefined],
    ]);
    const bad = `mcp "a" {\n  command     = "x"\n  timeout     = "90"\n}\nmcp "b" {\n  command     = "x"\n  timeout     = "0s"\n}\nmcp "c" {\n  command     = "x"\n  timeout     = "5m"\n  max_timeout = "2m"\n}\n`;
    expect(codes(loadHcl(bad))).toEqual([`SCH010@${at(bad, '"90"')}`, `SCH013@${at(bad, '"0s"')}`, `SCH013@${at(bad, '"2m"')}`]);
  });

  test('sampling is off by default; sampling = true may name the model that answers (sampling_model)', () => {
    const model = `model "m" {\n  provider = "anthropic"\n  api_key  = "k"\n}\n`;
    const src = `${model}mcp "a" {\n  command = "x"\n}\nmcp "b" {\n  command  = "x"\n  sampling = true\n}\nmcp "c" {\n  command        = "x"\n  sampling       = true\n  sampling_model = models.m.claude_haiku_4_5\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['w:GRA012@1:1']);
    expect(r.graph!.mcpServers.map((s) => [s.sampling, s.samplingModel?.apiModel])).toEqual([
      [undefined, undefined],
      [true, undefined],
      [true, 'claude-haiku-4-5-20251001'],
    ]);
    const bad = `${model}mcp "a" {\n  command        = "x"\n  sampling_model = models.m.claude_haiku_4_5\n}\nmcp "b" {\n  command        = "x"\n  sampling       = true\n  sampling_model = models.m.nope\n}\n`;
    expect(codes(loadHcl(bad))).toEqual([`SCH012@${at(bad, 'sampling_model')}`, `REF009@${at(bad, 'models.m.nope')}`]);
  });

  test('an unknown mcp server is REF003', () => {
    const src = withMission('  task "a" {\n    objective = "x"\n    tools = [mcp.fs.read]\n  }\n');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'mcp.fs.read')}`]);
    expect(r.diagnostics[0]!.hint).toBe('declare it: mcp "fs" { command = "…" }');
  });
});

describe('toolsets', () => {
  test('a toolset expands builtins .all and keeps its own provenance', () => {
    const src = `toolset "web" {\n  description = "Web"\n  tools = [builtins.http.all, builtins.http.get, builtins.utils.current_time]\n}\n`;
    const t = loadHcl(src).graph!.toolsets[0]!;
    expect(t.tools.map((x) => x.ref)).toEqual([
      'builtins.http.get',
      'builtins.http.post',
      'builtins.http.put',
      'builtins.http.patch',
      'builtins.http.delete',
      'builtins.utils.current_time',
    ]);
    expect(new Set(t.tools.map((x) => x.via))).toEqual(new Set(['toolset:web']));
  });

  test('a toolset that references a toolset is REF008 naming both', () => {
    const src = `toolset "a" {\n  tools = [builtins.http.get]\n}\ntoolset "b" {\n  tools = [toolsets.a]\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF008@${at(src, 'toolsets.a')}`]);
    expect(only(r, 'REF008').message).toBe('toolset "b" references toolset "a": toolsets cannot contain toolsets');
  });

  test('a toolset needs tools (SCH003)', () => {
    expect(codes(loadHcl(`toolset "a" {\n}\n`))).toEqual(['SCH003@1:1']);
  });
});

describe('mcp source (configs of the first implementation)', () => {
  test('source = "npm:<pkg>" with a version runs npx -y <pkg>@<version>, args appended', () => {
    const src = `mcp "e" {\n  source  = "npm:@scope/server"\n  version = "1.2.3"\n  args    = ["--flag"]\n}\n`;
    const r = loadHcl(src);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.graph!.mcpServers[0]!.transport).toEqual({ kind: 'stdio', command: 'npx', args: ['-y', '@scope/server@1.2.3', '--flag'], env: {} });
  });

  test('source without version, and version without source, are errors', () => {
    expect(codes(loadHcl(`mcp "e" {\n  source = "npm:x"\n}\n`)).some((c) => c.startsWith('SCH003@'))).toBe(true);
    expect(codes(loadHcl(`mcp "e" {\n  command = "x"\n  version = "1"\n}\n`)).some((c) => c.startsWith('SCH012@'))).toBe(true);
  });
});
