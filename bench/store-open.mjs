// What opening an up-to-date SQLite database costs: the price every `runs`, `inspect`, `resume` and
// `run` pays at start-up (recognising the file, verifying the applied migrations' checksums, applying
// none). Prints p50/p90 of openStore + close for reading and for writing, and the same split into
// its parts. Nothing is asserted. Run after building:  npm run build --silent && node bench/store-open.mjs
// Options: --n <opens> (default 300).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { openStore } from '../dist/store/index.js';
import { migrate, readMigrations } from '../dist/store/migrate.js';
import { assetPath } from '../dist/core/assets.js';

const args = process.argv.slice(2);
const n = args.includes('--n') ? Number(args[args.indexOf('--n') + 1]) : 300;
const root = mkdtempSync(join(tmpdir(), 'squadron-bench-open-'));
const path = join(root, 'squadron.db');
openStore(path).close();
// The packaged SQLite migrations (migrations/sqlite/, or migrations/ before the per-backend layout).
const dir = readMigrations(assetPath('migrations')).length > 0 ? assetPath('migrations') : assetPath('migrations', 'sqlite');

function figures(label, fn) {
  for (let i = 0; i < 20; i++) fn(); // warm-up: module loading and the page cache are not the point
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(3);
  console.log(`${label.padEnd(44)} p50 ${at(0.5)} ms   p90 ${at(0.9)} ms   (n=${n})`);
}

figures('openStore(read) + close, up to date', () => openStore(path, { access: 'read' }).close());
figures('openStore(write) + close, up to date', () => openStore(path).close());
const db = new Database(path);
const now = () => new Date().toISOString();
figures('migrate() on an up-to-date connection', () => migrate(db, dir, now));
figures('readMigrations (read + checksum the files)', () => readMigrations(dir));
db.close();
figures('bare better-sqlite3 open + close (floor)', () => new Database(path, { readonly: true }).close());

rmSync(root, { recursive: true, force: true });
