// V8 code cache for the CLI's bundle on Node versions without module.enableCompileCache (Node 20).
// The bundle (scripts/bundle.mjs) is CommonJS, so each of its chunks goes through
// Module.prototype._compile; for the files of the bundle's folder this compiles them as a vm.Script
// fed with the code cache a previous process left, and at exit writes the cache of every chunk that
// had none (or whose cache V8 rejected): what the chunk's functions were compiled to by then, so a
// command's next start reads the code it ran instead of compiling it again. It is what Node 22.8+
// does natively for the same files (cli/compileCache.ts uses Node's there).
//
// Where: <folder>/squadron-<node version>-<arch>/<install>/<chunk file name>, the folder being
// Node's own choice for its compile cache (NODE_COMPILE_CACHE, else <os temp>/node-compile-cache),
// <install> a hash of the bundle's path, and NODE_DISABLE_COMPILE_CACHE=1 turns it off as it turns
// Node's off. Chunk file names carry a hash of their content, so a rebuilt chunk never meets an old
// cache, and when a process writes caches it removes those of chunks its install no longer has (a
// rebuild leaves no cache behind). V8 checks the rest (its own version, the flags, the source's
// length) and rejects a cache that does not fit, which is then rewritten. A folder owned by another
// user is not used (a cache is code this process would run), and a cache that cannot be read or
// written costs the speed-up only, never the command.

import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';

/** The parts of Node's CommonJS Module this hook uses (not all in @types/node). */
interface CjsModule {
  exports: unknown;
  filename: string;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}
interface CjsModuleClass {
  prototype: CjsModule;
  wrap(content: string): string;
  _resolveFilename(request: string, parent: CjsModule, isMain: boolean, options?: { paths?: string[] }): string;
  _resolveLookupPaths(request: string, parent: CjsModule): string[] | null;
  _cache: Record<string, unknown>;
  _extensions: Record<string, unknown>;
}

/** The cache folder of the bundle in `bundleDir` for this Node, or undefined when the environment turns the cache off. */
export function codeCacheDir(bundleDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  const root = env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache');
  const install = createHash('sha256').update(bundleDir).digest('hex').slice(0, 16);
  return join(root, `squadron-${process.version}-${process.arch}`, install);
}

/**
 * Compiles the CommonJS files under `bundleDir` with V8 code cache from `cacheDir`, and writes the
 * missing caches when the process exits. Does nothing when the folder cannot be made or is not ours.
 */
export function startCodeCache(bundleDir: string, cacheDir: string | undefined = codeCacheDir(bundleDir)): void {
  if (cacheDir === undefined || !usableDir(cacheDir)) return;
  const prefix = bundleDir.endsWith(sep) ? bundleDir : `${bundleDir}${sep}`;
  const CjsModule = Module as unknown as CjsModuleClass;
  const compile = CjsModule.prototype._compile;
  const toWrite: { script: Script; file: string }[] = [];
  CjsModule.prototype._compile = function compileWithCache(this: CjsModule, content: string, filename: string) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename);
    const file = join(cacheDir, basename(filename));
    const cachedData = readCache(file);
    const script = new Script(CjsModule.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected === true) toWrite.push({ script, file });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(this, CjsModule), this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (toWrite.length === 0) return;
    for (const { script, file } of toWrite) writeCache(file, script);
    removeStale(cacheDir, bundleDir);
  });
}

/** Removes the caches of files the bundle no longer has (chunks of an earlier build). */
function removeStale(cacheDir: string, bundleDir: string): void {
  try {
    const current = new Set(readdirSync(bundleDir, { recursive: true }).map((f) => basename(String(f))));
    // Not a cache another process is writing (<name>.<pid>, renamed into place when whole).
    for (const file of readdirSync(cacheDir)) if (!current.has(file) && !/\.\d+$/.test(file)) rmSync(join(cacheDir, file), { force: true });
  } catch {
    // Left for the next process that writes a cache.
  }
}

/** The folder exists (made if needed, private) and belongs to this user. */
function usableDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    return uid === undefined || statSync(dir).uid === uid;
  } catch {
    return false;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside and renamed into place: a process reading it meets a whole cache or none. */
function writeCache(file: string, script: Script): void {
  const partial = `${file}.${process.pid}`;
  try {
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // No cache this time; the next start compiles again.
  }
}

/** The `require` a CommonJS module is given (what Node's own _compile builds). */
function requireFor(module: CjsModule, CjsModule: CjsModuleClass): NodeJS.Require {
  const require = ((id: string) => module.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) => CjsModule._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => CjsModule._resolveLookupPaths(request, module);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.cache = CjsModule._cache as NodeJS.Require['cache'];
  require.extensions = CjsModule._extensions as NodeJS.Require['extensions'];
  return require;
}
