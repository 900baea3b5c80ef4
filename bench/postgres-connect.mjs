// What the PostgreSQL groundwork costs: starting the throwaway test server (test/support/postgres.ts,
// template cached), connecting to a fresh database (all migrations applied under the advisory lock)
// and to an up-to-date one (one query, no lock). Prints figures only; nothing is asserted.
// Run after building:  npm run build --silent && node bench/postgres-connect.mjs [--n 30]

import { performance } from 'node:perf_hooks';
import { connectPostgres } from '../dist/store/postgres/index.js';
import { startPostgres } from '../dist/test/support/postgres.js';

const args = process.argv.slice(2);
const n = args.includes('--n') ? Number(args[args.indexOf('--n') + 1]) : 30;

function summary(label, times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  console.log(`${label.padEnd(52)} p50 ${at(0.5)} ms   p90 ${at(0.9)} ms   (n=${sorted.length})`);
}

const t0 = performance.now();
const server = await startPostgres();
console.log(`${'test server start (first one may run initdb)'.padEnd(52)} ${(performance.now() - t0).toFixed(0)} ms`);
try {
  const fresh = [];
  const upToDate = [];
  for (let i = 0; i < n; i++) {
    const url = await server.createDatabase();
    let start = performance.now();
    const first = await connectPostgres(url);
    fresh.push(performance.now() - start);
    await first.close();
    start = performance.now();
    const again = await connectPostgres(url);
    upToDate.push(performance.now() - start);
    await again.close();
  }
  summary('connectPostgres, fresh database (applies 0001, 0002)', fresh);
  summary('connectPostgres, up to date (one query, no lock)', upToDate);
} finally {
  await server.stop();
}
