// `squadron docs` speed: the whole command, spawned and piped, for the topic list (no Markdown
// renderer), a page (marked + marked-terminal, whose highlighter loads highlight.js) and the
// generated builtins page, beside `squadron --version` (start-up alone). Runs interleaved after two
// warm-up rounds so load from other processes hits them alike; median and minimum wall time.
// Prints figures only; nothing is asserted. Run after building:
//   npm run build && node bench/docs.mjs [--runs 15]

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 15;
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.cjs');
const env = { ...process.env, NO_COLOR: '1', COLUMNS: '80' };
const cases = { '--version': ['--version'], docs: ['docs'], 'docs task': ['docs', 'task'], 'docs builtins': ['docs', 'builtins'] };

const wall = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = -2; round < RUNS; round++) {
  for (const [name, argv] of Object.entries(cases)) {
    const start = performance.now();
    const r = spawnSync(process.execPath, [cli, ...argv], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr}`);
    if (round < 0) continue;
    wall[name].push(performance.now() - start);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`squadron docs, ${RUNS} runs each (ms, wall):`);
for (const name of Object.keys(cases)) {
  console.log(`  ${name.padEnd(14)} median ${median(wall[name]).toFixed(0).padStart(5)}   min ${Math.min(...wall[name]).toFixed(0).padStart(5)}`);
}
