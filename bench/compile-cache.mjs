// What the CLI's compile cache (Node's own, module.enableCompileCache, turned on by the CLI at start-up)
// buys its start-up, under whichever node runs this script. Prints figures only.
//   npm run build && node bench/compile-cache.mjs [--runs 15]
//   scripts/node-matrix.sh runs it under each Node line.
//
// Each command runs as a whole process in three states, interleaved round by round so that load from
// other processes hits them alike: "off" (NODE_DISABLE_COMPILE_CACHE=1), "cold" (a new, empty cache
// folder each spawn: compiling plus writing the cache) and "warm" (a cache folder filled by an earlier
// spawn: what every run after the first one gets). Medians of --runs spawns, in ms: wall time, and CPU
// time (user + system, printed by a preload at exit; it costs a little in every row alike), which a
// busy machine disturbs far less than wall time.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 15;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'cli', 'main.cjs');
const CPU_PRELOAD = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\n@@cpu '+(u.user+u.system)/1000+'\\n')})`;

const commands = [
  ['node -e 0', ['-e', '0']],
  ['squadron --version', [cli, '--version']],
  ['squadron validate examples/quickstart', [cli, 'validate', join(repo, 'examples', 'quickstart')]],
  ['squadron plan examples/quickstart', [cli, 'plan', join(repo, 'examples', 'quickstart')]],
];
const scratch = mkdtempSync(join(tmpdir(), 'squadron-compile-cache-'));
const warmDir = join(scratch, 'warm');
let coldCount = 0;
const states = {
  off: () => ({ NODE_DISABLE_COMPILE_CACHE: '1' }),
  cold: () => ({ NODE_COMPILE_CACHE: join(scratch, `cold-${coldCount++}`) }),
  warm: () => ({ NODE_COMPILE_CACHE: warmDir }),
};

function timeOne(argv, extraEnv) {
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.NODE_COMPILE_CACHE; // the state decides, not the caller's environment
  Object.assign(env, extraEnv);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_PRELOAD, ...argv], { env, encoding: 'utf8' });
  const wall = performance.now() - t0;
  const cpu = Number(/@@cpu ([\d.]+)/.exec(r.stderr)?.[1]);
  if (r.status !== 0 || Number.isNaN(cpu)) throw new Error(`node ${argv.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return { wall, cpu };
}

const samples = new Map();
// Two warm-up rounds (they also fill the warm cache), then the measured ones.
for (let round = -2; round < RUNS; round++) {
  for (const [name, argv] of commands) {
    for (const [state, env] of Object.entries(states)) {
      const t = timeOne(argv, env());
      if (round < 0) continue;
      const key = `${name}|${state}`;
      samples.set(key, [...(samples.get(key) ?? []), t]);
    }
  }
}
rmSync(scratch, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => (x === undefined ? '-' : `${x.toFixed(1)}`);
console.log(`node ${process.version}, ${RUNS} runs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores; median ms, wall / cpu`);
console.log(`${'command'.padEnd(40)}${Object.keys(states).map((s) => s.padStart(18)).join('')}`);
for (const [name] of commands) {
  const cells = Object.keys(states).map((s) => {
    const xs = samples.get(`${name}|${s}`);
    return `${f(median(xs.map((x) => x.wall)))} / ${f(median(xs.map((x) => x.cpu)))}`.padStart(18);
  });
  console.log(`${name.padEnd(40)}${cells.join('')}`);
}
console.log("(the cache: Node's compile cache)");
