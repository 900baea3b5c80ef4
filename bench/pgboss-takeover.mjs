// What pg-boss 12 would give the task queue (docs/concepts/scale-out.md, "Why a queue table and not
// pg-boss"), on the embedded PostgreSQL the tests use: enqueue → fetch latency (p50/p99 of --jobs
// jobs, one fetcher polling every 100 ms as our runners do), and the time from `kill -9` of a
// process holding a job (heartbeats every --heartbeat / 2 s) until another fetcher gets it again,
// with the queue's smallest heartbeat (10 s, pg-boss refuses less) and a 1 s monitor. Prints
// figures only. Run after building:
//   npm run build --silent && node bench/pgboss-takeover.mjs [--jobs 200] [--heartbeat 10] [--monitor 1]

import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { PgBoss } from 'pg-boss';
import { startPostgres } from '../dist/test/support/postgres.js';

const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const JOBS = option('--jobs', 200);
const HEARTBEAT = option('--heartbeat', 10);
const MONITOR = option('--monitor', 1);
const QUEUE = 'task';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

// The holder: fetches one job, heartbeats it until killed.
if (args[0] === '--hold') {
  const boss = new PgBoss({ connectionString: args[1], schema: 'pgboss', supervise: false, schedule: false });
  await boss.start();
  for (;;) {
    const [job] = await boss.fetch(QUEUE);
    if (job) {
      process.stdout.write(`held ${job.id}\n`);
      for (;;) {
        await sleep((HEARTBEAT * 1000) / 2);
        await boss.touch(QUEUE, job.id);
      }
    }
    await sleep(100);
  }
}

console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} CPUs; pg-boss 12, heartbeatSeconds ${HEARTBEAT}, monitorIntervalSeconds ${MONITOR}`);
const server = await startPostgres();
const url = await server.createDatabase();
const boss = new PgBoss({ connectionString: url, schema: 'pgboss', monitorIntervalSeconds: MONITOR, superviseIntervalSeconds: MONITOR });
boss.on('error', (e) => console.error(`pg-boss: ${e.message}`));
try {
  await boss.start();
  await boss.createQueue(QUEUE, { heartbeatSeconds: HEARTBEAT, retryLimit: 5, retryDelay: 0 });

  // enqueue → fetch: jobs sent at a steady pace, one fetcher polling every 100 ms.
  const sentAt = new Map();
  const waits = [];
  let stop = false;
  const fetcher = (async () => {
    while (!stop) {
      const jobs = await boss.fetch(QUEUE, { batchSize: 10 });
      const now = performance.now();
      for (const job of jobs) {
        waits.push(now - sentAt.get(job.data.n));
        await boss.complete(QUEUE, { id: job.id, retryCount: job.retryCount ?? 0 });
      }
      if (jobs.length === 0) await sleep(100);
    }
  })();
  for (let n = 0; n < JOBS; n++) {
    sentAt.set(n, performance.now());
    await boss.send(QUEUE, { n });
    await sleep(10);
  }
  while (waits.length < JOBS) await sleep(50);
  stop = true;
  await fetcher;
  console.log(`enqueue → fetch, ${JOBS} jobs: p50 ${pct(waits, 50).toFixed(0)} ms, p99 ${pct(waits, 99).toFixed(0)} ms`);

  // Takeover: a holder process fetches the job and heartbeats; kill -9; another fetcher polls.
  const id = await boss.send(QUEUE, { n: -1 });
  const holder = spawn(process.execPath, [import.meta.filename, '--hold', url, '--heartbeat', String(HEARTBEAT)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => holder.stdout.on('data', (d) => String(d).includes(id) && resolve()));
  await sleep(HEARTBEAT * 1000); // held for a while, heartbeating
  holder.kill('SIGKILL');
  const killedAt = performance.now();
  for (;;) {
    const [job] = await boss.fetch(QUEUE);
    if (job) {
      console.log(`kill -9 of the holder → job fetched again: ${((performance.now() - killedAt) / 1000).toFixed(1)} s (retryCount ${job.retryCount})`);
      break;
    }
    await sleep(100);
  }
} finally {
  await boss.stop({ graceful: false }).catch(() => undefined);
  await server.stop();
}
