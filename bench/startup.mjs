// CLI start-up: how long each command takes as a whole process, beside `node -e 0` measured in the
// same rounds, and what each import costs on its own. Prints figures only; nothing is asserted.
//   npm run build && node bench/startup.mjs [--runs 20] [--imports-only | --commands-only]
//   [--cli other/main.cjs …]: also time these builds of the CLI (e.g. a copy of an earlier build), in
//   the same rounds
//
// Commands run against a copy of examples/quickstart, run once offline (its model replays a
// cassette) so `runs` and `inspect` read a real stored run. Every command runs `--runs` times,
// interleaved with the others after two warm-up rounds, so load from other processes on a shared
// machine hits them alike; min and median are shown, and each as a ratio to `node -e 0`. CPU time
// (user + system) is measured in separate spawns with a preload that prints it on exit (the preload
// itself costs a little, in every row alike, node -e 0 included).
//
// The "modules" column counts the files (ES and CommonJS) each command loads, from a load-hook preload:
// dist/cli/main.cjs is a bundle (scripts/bundle.mjs), so these are its chunks plus the packages kept
// out of it (better-sqlite3, pino, …) and what is loaded by createRequire (yaml, re2js).
//
// The import table imports one module in a fresh process and times that `await import()` alone: the
// module with everything it pulls in that Node has not loaded yet (so rows overlap: config/load.js
// includes config/hcl). These are tsc's unbundled modules (dist/…), which the programmatic API still
// loads; the CLI reads the same code from its chunks. `--cpu-prof` on a command shows the same costs from the other side.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 20;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'cli', 'main.cjs');
const others = args.flatMap((a, i) => (a === '--cli' ? [resolve(args[i + 1])] : []));
const env = { ...process.env, NO_COLOR: '1' };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const min = (xs) => Math.min(...xs);
const ms = (x) => `${x.toFixed(1)} ms`;
const CPU_PRELOAD = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\n@@cpu '+(u.user+u.system)/1000+'\\n')})`;

function spawnOk(argv, cwd) {
  const r = spawnSync(process.execPath, argv, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0 && !(argv.includes('--check') && r.status === 1)) {
    throw new Error(`node ${argv.join(' ')} failed (${r.status}):\n${r.stderr}`);
  }
  return r;
}

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-startup-'));
  cpSync(join(repo, 'examples', 'quickstart'), dir, { recursive: true });
  spawnOk([cli, 'run', '.'], dir);
  const runs = JSON.parse(spawnOk([cli, 'runs', '--json'], dir).stdout).runs;
  return { dir, runId: runs[0].id };
}

/** How many files (ES modules and CommonJS) the process of `argv` loads. */
function modulesLoaded(argv, cwd, scratch) {
  const list = join(scratch, 'loaded.txt');
  writeFileSync(list, '');
  spawnSync(process.execPath, ['--import', join(scratch, 'preload.mjs'), ...argv], { cwd, env: { ...env, LOADED_LIST: list }, encoding: 'utf8' });
  return new Set(readFileSync(list, 'utf8').split('\n').filter((l) => l !== '').map((l) => l.replace(/^file:\/\//, ''))).size;
}

function loadRecorder() {
  const scratch = mkdtempSync(join(tmpdir(), 'squadron-startup-modules-'));
  writeFileSync(join(scratch, 'hooks.mjs'), "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(process.env.LOADED_LIST, url + '\\n'); return next(url, context); }\n");
  writeFileSync(
    join(scratch, 'preload.mjs'),
    "import { register, createRequire } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nregister(new URL('./hooks.mjs', import.meta.url));\nconst cache = createRequire(import.meta.url).cache;\nprocess.on('exit', () => appendFileSync(process.env.LOADED_LIST, Object.keys(cache).join('\\n') + '\\n'));\n",
  );
  return scratch;
}

function commandTable() {
  const { dir, runId } = project();
  const commands = [
    ['--version'],
    ['validate', 'mission.hcl', '--offline'],
    ['fmt', '--check', 'mission.hcl'],
    ['docs'],
    ['runs'],
    ['inspect', runId],
    ['plan', 'mission.hcl'],
  ];
  const builds = others.map((other, n) => [`cli #${n + 1}`, other]);
  const rows = [['node -e 0', ['-e', '0']]];
  for (const command of commands) {
    rows.push([`squadron ${command[0] === 'inspect' ? 'inspect <run>' : command.join(' ')}`, [cli, ...command]]);
    for (const [label, other] of builds) rows.push([`  (${label})`, [other, ...command]]);
  }
  const scratch = loadRecorder();
  const modules = rows.map(([, argv]) => modulesLoaded(argv, dir, scratch));
  rmSync(scratch, { recursive: true, force: true });
  const times = rows.map(() => ({ wall: [], cpu: [] }));
  try {
    for (let round = 0; round < RUNS + 2; round++) {
      rows.forEach(([, argv], i) => {
        const t = performance.now();
        spawnOk(argv, dir);
        const wall = performance.now() - t;
        const r = spawnOk(['--import', CPU_PRELOAD, ...argv], dir);
        const cpu = Number(/@@cpu ([\d.]+)/.exec(r.stderr)?.[1]);
        if (round >= 2) {
          times[i].wall.push(wall);
          times[i].cpu.push(cpu);
        }
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const base = times[0];
  console.log(`Whole-process start-up (${RUNS} interleaved runs; ratio = this row / node -e 0 of the same runs)`);
  others.forEach((other, n) => console.log(`cli #${n + 1}: ${other}`));
  console.log('| command | modules | wall min | wall median | × node (median) | cpu median | × node (cpu) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  rows.forEach(([name], i) => {
    const t = times[i];
    const cells = [
      name,
      String(modules[i]),
      ms(min(t.wall)),
      ms(median(t.wall)),
      `${(median(t.wall) / median(base.wall)).toFixed(2)}×`,
      ms(median(t.cpu)),
      `${(median(t.cpu) / median(base.cpu)).toFixed(2)}×`,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  });
}

// Modules a command may load, each imported alone in a fresh process.
const IMPORTS = [
  'commander',
  'zod',
  'yaml',
  'better-sqlite3',
  'pino',
  're2js',
  'marked',
  'marked-terminal',
  '@anthropic-ai/sdk',
  'openai',
  '@modelcontextprotocol/sdk/client/index.js',
  'dist/cli/program.js',
  'dist/cli/commands/validate.js',
  'dist/cli/commands/fmt.js',
  'dist/cli/commands/docs.js',
  'dist/cli/commands/runs.js',
  'dist/cli/commands/inspect.js',
  'dist/cli/commands/plan.js',
  'dist/cli/commands/run.js',
  'dist/config/hcl/index.js',
  'dist/config/load.js',
  'dist/store/index.js',
  'dist/runtime/inspect/inspect.js',
  'dist/runtime/plan/plan.js',
  'dist/runtime/discovery/index.js',
  'dist/runtime/run/run.js',
];

function importTable() {
  const timer = (spec) => {
    const url = spec.startsWith('dist/') ? pathToFileURL(join(repo, spec)).href : spec;
    // Resolved from the repository, as the CLI resolves its dependencies.
    return `const t = performance.now(); await import(${JSON.stringify(url)}); process.stdout.write(String(performance.now() - t));`;
  };
  const times = IMPORTS.map(() => []);
  for (let round = 0; round < RUNS + 1; round++) {
    IMPORTS.forEach((spec, i) => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', timer(spec)], { cwd: repo, env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`import ${spec} failed:\n${r.stderr}`);
      if (round >= 1) times[i].push(Number(r.stdout));
    });
  }
  console.log(`\nImport cost, each module alone in a fresh process with all it imports (${RUNS} runs)`);
  console.log('| module | min | median |');
  console.log('|---|---:|---:|');
  IMPORTS.forEach((spec, i) => console.log(`| ${spec} | ${ms(min(times[i]))} | ${ms(median(times[i]))} |`));
}

if (!args.includes('--imports-only')) commandTable();
if (!args.includes('--commands-only')) importTable();
