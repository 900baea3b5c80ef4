// Summarises V8 CPU profiles (node --cpu-prof, or bench/persistence.mjs --cpu-prof DIR): self time
// by file (a chunk of the bundle, a package, Node's internals, GC, the idle loop) and the heaviest
// functions, so a profile's breakdown can be read without DevTools, and a split of the time by what
// the process was doing (each sample counted once, in the first of these its stack shows): garbage
// collection, loading code (Node's module loader, the CLI's chunks and Node's own built-ins), the
// model call (the SDKs and the transport), the store (its chunk and better-sqlite3), and the rest
// (config, runtime, CLI). Several files are summed.
//   node bench/cpuprofile.mjs <file.cpuprofile>… [--top 25]

import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 25;
const files = args.filter((a, i) => a.endsWith('.cpuprofile') && args[i - 1] !== '--top');
if (files.length === 0) {
  console.error('usage: node bench/cpuprofile.mjs <file.cpuprofile>… [--top N]');
  process.exit(2);
}

/** Node's module loading (CommonJS and ES modules, Node's built-ins), by its internal functions' names. */
const LOADER = new Set(['Module._load', 'compileForInternalLoader', 'compileForPublicLoader', 'ModuleJob', 'link', 'moduleLink', 'instantiate']);
const isLoader = (frame) => frame.url.startsWith('node:') && LOADER.has(frame.functionName);

const byFile = new Map();
const byFunction = new Map();
const inclusive = new Map();
const phases = new Map();
let total = 0;
let span = 0;
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);

/** A short name for where a function lives: a chunk, a package, a Node internal or a V8 pseudo-node. */
function place(url, name) {
  if (!url) return `(${name.replace(/^\(|\)$/g, '')})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `package ${pkg[1]}`;
  const chunk = /dist\/cli\/(chunks\/[^/]+|main\.c?js)$/.exec(url);
  if (chunk) return chunk[1].replace(/-[A-Za-z0-9_-]{8}\.c?js$/, '');
  const dist = /dist\/(.+)$/.exec(url);
  if (dist) return dist[1];
  if (url.startsWith('node:')) return 'node internals';
  return url;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  span += profile.endTime - profile.startTime;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) add(self, profile.samples[i], profile.timeDeltas[i] ?? 0);
  // Inclusive time: each sample counted once for every distinct function on its stack.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  for (const [id, us] of self) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { callFrame } = nodes.get(at);
      if (!callFrame.url) continue;
      const key = `${callFrame.functionName || '(anonymous)'}  ${place(callFrame.url, '')}:${callFrame.lineNumber + 1}`;
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusive, key, us);
      }
    }
  }
  for (const [id, us] of self) {
    const stack = [];
    for (let at = id; at !== undefined; at = parent.get(at)) stack.push(nodes.get(at).callFrame);
    add(phases, phaseOf(stack), us);
  }
  for (const [id, us] of self) {
    const { callFrame } = nodes.get(id);
    const where = place(callFrame.url, callFrame.functionName || '(anonymous)');
    add(byFile, where, us);
    add(byFunction, `${callFrame.functionName || '(anonymous)'}  ${where}:${callFrame.lineNumber + 1}`, us);
    if (callFrame.functionName !== '(idle)') total += us;
  }
}

/** What a sample's stack (innermost frame first) was doing. */
function phaseOf(stack) {
  const [top] = stack;
  if (top.functionName === '(garbage collector)') return 'garbage collection';
  if (top.functionName === '(idle)') return 'idle';
  if (top.functionName === '(program)') return 'V8 and Node, outside JavaScript';
  const places = stack.map((f) => place(f.url, f.functionName));
  if (stack.some(isLoader)) return 'loading code';
  if (places.some((p) => /^chunks\/(anthropic|openai|sdkCall|httpFetch|anthropicRequest)\b/.test(p)) || stack.some((f) => f.functionName === 'callSdk')) return 'the model call';
  if (places.some((p) => /^chunks\/store\b|^package better-sqlite3$/.test(p))) return 'the store';
  return 'the rest (config, runtime, CLI)';
}

const ms = (us) => `${(us / 1000 / files.length).toFixed(1).padStart(8)} ms`;
console.log(`${files.length} profile(s); per profile: ${ms(span)} profiled, ${ms(total)} not idle\n`);
console.log('what the process was doing');
for (const [k, us] of [...phases].sort((a, b) => b[1] - a[1])) console.log(`${ms(us)}  ${k}`);
console.log('\nself time by file');
for (const [k, us] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${k}`);
console.log('\nheaviest functions (self time)');
for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${k}`);
console.log('\nheaviest functions (inclusive time, our code and packages)');
for (const [k, us] of [...inclusive].filter(([k]) => !k.includes('node internals')).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${k}`);
