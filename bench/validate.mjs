// Validate speed: generates a ~5,000-line project (500 tasks in 5 missions, 50 toolsets, 20 agents)
// and a 10-line one, then prints parse time, load time, the whole `squadron validate` command
// (spawned, --offline) on both beside bare `node` and `squadron --version` (start-up alone), and
// @cdktf/hcl2json's parse of the same text for comparison. Spawned commands run interleaved, after
// two warm-up rounds, so load from other processes hits them alike; median and minimum are shown.
// Then inputs that once crashed or stalled the loader (see hostileInputs). With --huge, also
// generated configs of 5 MB and 50 MB (many blocks in one file): `validate` wall and CPU time and
// peak RSS of each, with V8's default heap sizing (target for 50 MB: under 500 MB RSS) and under a
// 400 MB heap cap (the 50 MB config needs about 90 MB). Prints figures only; nothing is asserted. Run
// after building:
//   npm run build && node bench/validate.mjs [--runs 15] [--huge]

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseHcl } from '../dist/config/hcl/index.js';
import { loadConfig } from '../dist/config/load.js';
import { hugeConfig } from '../dist/test/support/hugeConfig.js';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 15;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'cli', 'main.cjs');
const env = { ...process.env, SQUADRON_VAR_api_key: 'bench', NO_COLOR: '1' };

function bigProject() {
  const files = {};
  const lib = [];
  lib.push('variable "api_key" {\n  secret = true\n}\n');
  lib.push('variable "region" {\n  default = "eu"\n}\n');
  lib.push('model "claude" {\n  provider = "anthropic"\n  api_key  = vars.api_key\n}\n');
  lib.push('model "openai" {\n  provider = "openai"\n  base_url = "https://api.example.com/${vars.region}/v1"\n}\n');
  for (let i = 0; i < 10; i++) {
    lib.push(`tool "lookup_${i}" {
  implements  = builtins.http.get
  description = "Lookup service ${i}"
  inputs = {
    query = string("What to look up", true)
    limit = integer("How many results")
  }
  url = "https://svc${i}.example.com/search?q=\${inputs.query}&n=\${inputs.limit}"
}
`);
  }
  for (let i = 0; i < 50; i++) {
    lib.push(`toolset "ts_${i}" {
  description = "Toolset ${i}"
  tools       = [builtins.http.get, tools.lookup_${i % 10}, builtins.utils.current_time, builtins.files.read]
}
`);
  }
  for (let i = 0; i < 20; i++) {
    lib.push(`agent "agent_${i}" {
  model       = models.claude.claude_sonnet_5_5
  personality = "Specialist number ${i}. Careful and concise."
  tools       = [toolsets.ts_${i}, builtins.http.post]
  reasoning   = "medium"
}
`);
  }
  files['lib.hcl'] = lib.join('\n');
  for (let m = 0; m < 5; m++) {
    const out = [];
    out.push(`mission "mission_${m}" {
  description = "Generated mission ${m}"
  agents      = [agents.agent_${m}, agents.agent_${m + 5}]

  commander {
    model = models.claude.claude_sonnet_5_5
  }

  agent_defaults {
    model = models.claude.claude_haiku_4_5
    tools = [builtins.utils.current_time]
  }

  input "topic" {
    type        = "string"
    description = "What the mission is about"
  }
`);
    for (let t = 0; t < 100; t++) {
      const deps = t === 0 ? '' : `    depends_on = [${[t - 1, t - 7].filter((d) => d >= 0).map((d) => `tasks.t_${d}`).join(', ')}]\n`;
      const agents = t % 10 === 0 ? `    agents     = [agents.agent_${(t / 10) % 20}]\n` : '';
      out.push(`
  task "t_${t}" {
    objective  = "Step ${t} of mission ${m} about \${inputs.topic}."
    tools      = [toolsets.ts_${(t + m) % 50}, builtins.http.get]
${deps}${agents}
    output = {
      summary = string("What step ${t} found", true)
    }
  }
`);
    }
    out.push('}\n');
    files[`missions/mission_${m}.hcl`] = out.join('');
  }
  return files;
}

const SMALL = {
  'main.hcl': `model "claude" {
  provider = "anthropic"
}
mission "m" {
  commander {
    model = models.claude.claude_haiku_4_5
  }
  task "a" {
    objective = "Say hello"
    tools     = []
  }
}
`,
};

function write(files) {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-validate-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const lines = (files) => Object.values(files).reduce((n, t) => n + t.split('\n').length - 1, 0);
const ms = (x) => `${x.toFixed(1)} ms`;

function time(fn, runs = RUNS) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

// Each spawned process reports its own CPU time (user + system) on exit: on a machine shared with
// other work, CPU time moves far less than wall time does.
const CPU_PRELOAD = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\n@@cpu '+(u.user+u.system)/1000+' @@rss '+process.resourceUsage().maxRSS+'\\n')})`;

/** Runs each command `RUNS` times, interleaved (after two warm-up rounds): wall and CPU times. */
function spawnTimes(commands) {
  const times = commands.map(() => ({ wall: [], cpu: [] }));
  for (let round = 0; round < RUNS + 2; round++) {
    commands.forEach((args, i) => {
      const t = performance.now();
      const r = spawnSync(process.execPath, ['--import', CPU_PRELOAD, ...args], { env, encoding: 'utf8' });
      const dt = performance.now() - t;
      if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
      const cpu = Number(/@@cpu ([\d.]+)/.exec(r.stderr)?.[1]);
      if (round >= 2) {
        times[i].wall.push(dt);
        times[i].cpu.push(cpu);
      }
    });
  }
  return times;
}

const stats = (t) => `wall ${ms(median(t.wall)).padStart(9)} median ${ms(Math.min(...t.wall)).padStart(9)} min · cpu ${ms(median(t.cpu)).padStart(9)} median`;

const big = bigProject();
const bigDir = write(big);
const smallDir = write(SMALL);
try {
  const texts = Object.entries(big).map(([name, text]) => [join(bigDir, name), text]);
  console.log(`big project: ${lines(big)} lines in ${texts.length} files (500 tasks, 50 toolsets, 20 agents); small: ${lines(SMALL)} lines`);

  const first = loadConfig(bigDir, { env });
  globalThis.__keepBigDir = process.env.BENCH_KEEP === '1' ? console.error(bigDir) : undefined;
  const errors = first.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`the generated project does not validate: ${JSON.stringify(errors.slice(0, 3))}`);
  const tasks = first.graph.missions.reduce((n, m) => n + m.tasks.length, 0);

  const parse = time(() => {
    for (const [name, text] of texts) parseHcl(text, name);
  });
  const load = time(() => loadConfig(bigDir, { env }));
  console.log(`parse (our parser, all files):   ${ms(parse)}  median of ${RUNS}`);
  console.log(`loadConfig (parse + all stages): ${ms(load)}  (${tasks} tasks resolved)`);

  const [node, version, smallCmd, bigCmd] = spawnTimes([
    ['-e', '0'],
    [cli, '--version'],
    [cli, 'validate', smallDir, '--offline'],
    [cli, 'validate', bigDir, '--offline'],
  ]);
  console.log(`node -e 0 (Node's own start):    ${stats(node)}  (spawned, ${RUNS} interleaved runs)`);
  console.log(`squadron --version:              ${stats(version)}`);
  console.log(`squadron validate, small:        ${stats(smallCmd)}  (--offline)`);
  console.log(`squadron validate, big:          ${stats(bigCmd)}`);
  const ratio = (k) => (median(bigCmd[k]) / median(smallCmd[k])).toFixed(2);
  console.log(`big / small:                     ${ratio('wall')}x wall, ${ratio('cpu')}x cpu (medians; target ≤ 2x)`);
  startupRatios(node, version, smallCmd);

  const { parse: hcl2json } = await import('@cdktf/hcl2json');
  let t = performance.now();
  for (const [name, text] of texts) await hcl2json(name, text);
  const cold = performance.now() - t;
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    for (const [name, text] of texts) await hcl2json(name, text);
    warm.push(performance.now() - t);
  }
  console.log(`@cdktf/hcl2json parse, first:    ${ms(cold)}  (includes starting its WASM)`);
  console.log(`@cdktf/hcl2json parse, warm:     ${ms(median(warm))}  median of ${RUNS}`);

  hostileInputs();
  if (args.includes('--huge')) hugeConfigs();
} finally {
  if (process.env.BENCH_KEEP !== '1') rmSync(bigDir, { recursive: true, force: true });
  rmSync(smallDir, { recursive: true, force: true });
}

/**
 * Issue 12's start-up row: the small validate (and --version) as a ratio to `node -e 0` of the
 * same interleaved rounds, so the figure means the same on an idle and a busy machine.
 */
function startupRatios(node, version, smallCmd) {
  const ratio = (t, k) => (median(t[k]) / median(node[k])).toFixed(2);
  console.log(`validate, small / node -e 0:     ${ratio(smallCmd, 'wall')}x wall, ${ratio(smallCmd, 'cpu')}x cpu (medians; target ≤ 2x)`);
  console.log(`--version / node -e 0:           ${ratio(version, 'wall')}x wall, ${ratio(version, 'cpu')}x cpu`);
}

/**
 * Inputs that once took the loader down or made it crawl: one emoji in a long single line (columns
 * were counted from the line start for every token), 5,000 nested parentheses (stack overflow, now
 * SYN030), a 10,000-term sum and an 8,000-task depends_on chain (recursive evaluation and cycle
 * search, now loops).
 */
function hostileInputs() {
  const items = Array.from({ length: 33_000 }, (_, i) => `"a${i % 10}"`).join(',');
  const plain = `x = ["a",${items}]\n`;
  const emoji = `x = ["😀",${items}]\n`;
  const kb = (plain.length / 1024).toFixed(0);
  console.log(`one-line list, ${kb} KB:           ${ms(time(() => parseHcl(plain, 'plain.hcl'), 5))} plain, ${ms(time(() => parseHcl(emoji, 'emoji.hcl'), 5))} with one emoji`);
  const deep = `x = ${'('.repeat(5000)}1${')'.repeat(5000)}\n`;
  const deepCodes = parseHcl(deep, 'deep.hcl').diagnostics.map((d) => d.code).join(',');
  console.log(`5,000 nested parentheses:        ${ms(time(() => parseHcl(deep, 'deep.hcl'), 5))} (${deepCodes})`);
  const head = `model "claude" {\n  provider = "anthropic"\n}\nmission "m" {\n  commander {\n    model = models.claude.claude_haiku_4_5\n  }\n`;
  const task = (i) => `  task "t${i}" {\n    objective = "x"\n    tools = []\n${i > 0 ? `    depends_on = [tasks.t${i - 1}]\n` : ''}  }\n`;
  const sum = write({ 'main.hcl': `${head}  max_parallel = ${Array(10_000).fill('1').join(' + ')}\n${task(0)}}\n` });
  const chain = write({ 'main.hcl': `${head}${Array.from({ length: 8000 }, (_, i) => task(i)).join('')}}\n` });
  try {
    for (const [label, dir] of [['10,000-term sum (max_parallel)', sum], ['8,000-task depends_on chain', chain]]) {
      const r = loadConfig(dir, { env });
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) throw new Error(`${label}: ${JSON.stringify(errors.slice(0, 2))}`);
      console.log(`${`${label}:`.padEnd(33)}${ms(time(() => loadConfig(dir, { env }), 3))} loadConfig`);
    }
  } finally {
    rmSync(sum, { recursive: true, force: true });
    rmSync(chain, { recursive: true, force: true });
  }
}

/** One file of many blocks, `mb` megabytes (test/support/hugeConfig.ts, shared with the memory test). */
function hugeConfigFiles(mb) {
  return { 'main.hcl': hugeConfig(mb * 1024 * 1024) };
}

function hugeConfigs() {
  // Each size twice: with V8's default heap sizing (what a user gets; V8 lets the heap grow past
  // the live data before collecting, more so on a busy machine, where collecting is slow), and
  // under a 400 MB heap cap, which validate should not need (it fails with "heap out of memory"
  // if it does). stdout is a pipe, as when a user pipes the summary on.
  const rows = {};
  for (const mb of [5, 50]) {
    const dir = write(hugeConfigFiles(mb));
    try {
      for (const heap of [undefined, 400]) {
        const flags = heap === undefined ? [] : [`--max-old-space-size=${heap}`];
        const t = performance.now();
        const r = spawnSync(process.execPath, [...flags, '--import', CPU_PRELOAD, cli, 'validate', dir, '--offline'], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
        const wall = performance.now() - t;
        const label = heap === undefined ? 'default heap' : `${heap} MB heap cap`;
        if (r.status !== 0) {
          const why = /heap out of memory|Reached heap limit/.test(r.stderr) ? 'out of memory' : r.stderr.slice(-300).trim();
          console.log(`validate, ${String(mb).padStart(2)} MB generated, ${label.padEnd(17)} failed (${r.status ?? r.signal}) after ${ms(wall)}: ${why}`);
          continue;
        }
        const cpu = Number(/@@cpu ([\d.]+)/.exec(r.stderr)?.[1]);
        const rss = Number(/@@rss (\d+)/.exec(r.stderr)?.[1]) / 1024;
        rows[`${mb}:${heap ?? ''}`] = { wall, cpu, rss };
        const target = mb === 50 && heap === undefined ? ' (target: under 500 MB RSS; run it a few times, V8 decides when to collect)' : '';
        console.log(`validate, ${String(mb).padStart(2)} MB generated, ${label.padEnd(17)} wall ${ms(wall).padStart(11)} · cpu ${ms(cpu).padStart(11)} · peak RSS ${rss.toFixed(0)} MB${target}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  for (const heap of ['', 400]) {
    const small = rows[`5:${heap}`];
    const big = rows[`50:${heap}`];
    if (small === undefined || big === undefined) continue;
    const label = heap === '' ? 'default heap' : `${heap} MB heap cap`;
    console.log(`50 MB / 5 MB, ${label.padEnd(17)} ${(big.wall / small.wall).toFixed(1)}x wall, ${(big.cpu / small.cpu).toFixed(1)}x cpu, ${(big.rss / small.rss).toFixed(1)}x peak RSS (target ≤ 10x wall)`);
  }
}
