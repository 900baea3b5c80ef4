// Lean start-up: the CLI loads only the module of the command being run, `validate` never loads the
// runtime, and the yaml package (SKILL.md front matter) is loaded only when a skill folder is read.

import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { commandsFor } from '../../cli/program.js';
import { commands } from '../../cli/commands/index.js';
import { CLI, REPO_ROOT } from '../support/cli.js';
import { removeTempProjects, tempProject, withMission } from './support.js';

afterAll(removeTempProjects);

describe('commandsFor', () => {
  const names = (argv: string[]): string[] => commandsFor(argv).map((c) => c.name);

  test('a command line that names a command loads only that command', () => {
    expect(names(['validate', 'x.hcl', '--offline'])).toEqual(['validate']);
    expect(names(['--debug', 'run', 'x.hcl'])).toEqual(['run']);
    expect(names(['validate', '--help'])).toEqual(['validate']);
  });

  test('--version alone loads no command', () => {
    expect(names(['--version'])).toEqual([]);
    expect(names(['-V'])).toEqual([]);
  });

  test('help, no command and unknown commands load them all, in --help order', () => {
    const all = commands.map((c) => c.name);
    expect(all).toEqual(['init', 'validate', 'fmt', 'plan', 'tools', 'graph', 'run', 'resume', 'runs', 'inspect', 'docs']);
    for (const argv of [[], ['--help'], ['help', 'validate'], ['valdate', 'x']]) expect(names(argv)).toEqual(all);
  });

  test('every entry loads a module with a register function', async () => {
    for (const c of commands) expect(typeof (await c.load()).register).toBe('function');
  });
});

describe('modules loaded by the built CLI', () => {
  let preload = '';
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`build the CLI first (npm run build): ${CLI} is missing`);
    // Records every ES module the process loads (a loader hook, which runs on its own thread, posts
    // each URL) and every CommonJS module in require's cache, and prints them on exit.
    const dir = tempProject({});
    preload = join(dir, 'preload.mjs');
    writeFileSync(
      preload,
      [
        "import { register, createRequire } from 'node:module';",
        "import { MessageChannel } from 'node:worker_threads';",
        'const { port1, port2 } = new MessageChannel();',
        'const seen = [];',
        'port1.on("message", (url) => seen.push(url));',
        'port1.unref();',
        `register(${JSON.stringify(`file://${join(dir, 'hooks.mjs')}`)}, { data: { port: port2 }, transferList: [port2] });`,
        "process.on('exit', () => { const cjs = Object.keys(createRequire(import.meta.url).cache); process.stderr.write('\\n@@LOADED ' + JSON.stringify([...seen, ...cjs]) + '\\n'); });",
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'hooks.mjs'),
      'let port;\nexport function initialize(data) { port = data.port; }\nexport async function load(url, context, next) { port.postMessage(url); return next(url, context); }\n',
    );
  });

  function loaded(args: string[], cwd: string): string[] {
    const r = spawnSync(process.execPath, ['--import', preload, CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const line = r.stderr.split('\n').find((l) => l.startsWith('@@LOADED '));
    if (line === undefined) throw new Error(`no module list (exit ${r.status}):\n${r.stderr}`);
    return (JSON.parse(line.slice('@@LOADED '.length)) as string[]).map((u) => u.replace(/^file:\/\//, '').replace(REPO_ROOT, ''));
  }

  const valid = withMission('  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n');

  test('validate loads the config loader, never the runtime, the other commands or yaml', () => {
    const files = loaded(['validate', '--offline'], tempProject({ 'main.hcl': valid }));
    expect(files).toContain('/dist/config/load.js');
    expect(files.filter((f) => f.startsWith('/dist/runtime/') || f.startsWith('/dist/store/'))).toEqual([]);
    expect(files.filter((f) => /\/dist\/cli\/commands\/(?!validate|index)/.test(f))).toEqual([]);
    expect(files.filter((f) => f.includes('/node_modules/yaml/'))).toEqual([]);
    // The Markdown renderer (marked, marked-terminal and its highlighter) is for `docs` only.
    expect(files.filter((f) => /\/node_modules\/(marked|marked-terminal|cli-highlight|highlight\.js)\//.test(f))).toEqual([]);
  });

  test('docs is what loads the Markdown renderer', () => {
    const files = loaded(['docs', 'task'], tempProject({}));
    expect(files).toContain('/dist/cli/markdownTerminal.js');
    expect(files.some((f) => f.includes('/node_modules/marked-terminal/'))).toBe(true);
  });

  test('graph loads the config loader, never the runtime or the store', () => {
    const files = loaded(['graph', '.'], tempProject({ 'main.hcl': valid }));
    expect(files).toContain('/dist/config/taskEdges.js');
    expect(files.filter((f) => f.startsWith('/dist/runtime/') || f.startsWith('/dist/store/'))).toEqual([]);
  });

  test('a SKILL.md folder is what loads yaml', () => {
    const skill = '---\nname: tone-guide\ndescription: How to write replies\n---\nBe kind.\n';
    const files = loaded(['validate', '--offline'], tempProject({ 'main.hcl': `skills_dir = "skills"\n${valid}`, 'skills/tone-guide/SKILL.md': skill }));
    expect(files.some((f) => f.includes('/node_modules/yaml/'))).toBe(true);
  });

  test('--version loads no command module and no config module', () => {
    const files = loaded(['--version'], tempProject({}));
    expect(files.filter((f) => f.startsWith('/dist/config/') || (f.startsWith('/dist/cli/commands/') && !f.endsWith('/index.js')))).toEqual([]);
  });
});
