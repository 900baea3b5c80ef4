// The workspace walker behind builtins.files: each name opened inside the folder opened before it.
// Symbolic links are followed only while they stay inside; writes go through a temporary file
// renamed into place. The same confinement cases run with descriptor paths and with the fallback.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, link, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { builtinToolSpecs } from '../../../runtime/tools/builtins/index.js';
import { parseWorkspacePath } from '../../../runtime/tools/builtins/workspacePaths.js';
import { Workspace } from '../../../runtime/tools/builtins/workspaceWalk.js';
import { textOf, toolContext } from './toolContext.js';

let tmp: string;
let ws: string;
let outside: string;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'squadron-walk-'));
  ws = path.join(tmp, 'ws');
  outside = path.join(tmp, 'outside');
  await mkdir(path.join(ws, 'd'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'top secret');
  await writeFile(path.join(ws, 'd', 'inner.txt'), 'inner');
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('parseWorkspacePath', () => {
  it('resolves .. by name and refuses what climbs out, absolute paths and NUL bytes', () => {
    expect(parseWorkspacePath('a/../b/./c.txt')).toEqual({ ok: true, names: ['b', 'c.txt'], display: 'b/c.txt' });
    expect(parseWorkspacePath('')).toEqual({ ok: true, names: [], display: '.' });
    expect(parseWorkspacePath('d/')).toEqual({ ok: true, names: ['d'], display: 'd' });
    expect(parseWorkspacePath('a/../../x')).toEqual({ ok: false, error: 'path "a/../../x" leaves the workspace directory' });
    expect(parseWorkspacePath('/etc/passwd')).toMatchObject({ ok: false, error: expect.stringMatching(/is absolute/) });
    expect(parseWorkspacePath('C:\\x')).toMatchObject({ ok: false, error: expect.stringMatching(/is absolute/) });
    expect(parseWorkspacePath('a\0b')).toEqual({ ok: false, error: 'path "a\\u0000b" contains a NUL byte' });
  });
});

describe('Workspace.walk', () => {
  async function walkTo(names: string[]) {
    const w = await Workspace.open(ws);
    if (!(w instanceof Workspace)) throw new Error(w.error);
    try {
      const r = await w.walk(names);
      return r.ok ? { ok: true, folder: r.folder.path } : r;
    } finally {
      await w.close();
    }
  }

  it('follows a folder link in the middle that stays inside, even through ..', async () => {
    await mkdir(path.join(ws, 'a/b'), { recursive: true });
    await symlink('../d', path.join(ws, 'a/up'));
    await symlink(path.join(ws, 'a'), path.join(ws, 'abs'));
    expect(await walkTo(['a', 'up'])).toEqual({ ok: true, folder: path.join(ws, 'd') });
    expect(await walkTo(['abs', 'b'])).toEqual({ ok: true, folder: path.join(ws, 'a/b') });
  });

  it('refuses links that lead out, by a relative or an absolute target, and link loops', async () => {
    await symlink('../../outside', path.join(ws, 'd/rel'));
    await symlink(outside, path.join(ws, 'd/abs'));
    await symlink('loop2', path.join(ws, 'loop1'));
    await symlink('loop1', path.join(ws, 'loop2'));
    expect(await walkTo(['d', 'rel'])).toEqual({ ok: false, problem: 'outside' });
    expect(await walkTo(['d', 'abs'])).toEqual({ ok: false, problem: 'outside' });
    expect(await walkTo(['loop1'])).toEqual({ ok: false, problem: 'loop' });
    expect(await walkTo(['d', 'inner.txt'])).toEqual({ ok: false, problem: 'not-folder' });
    expect(await walkTo(['nope'])).toEqual({ ok: false, problem: 'missing' });
  });
});

for (const descriptorPaths of [true, false]) {
  describe(`builtins.files with ${descriptorPaths ? 'descriptor paths' : 'the path fallback'}`, () => {
    const run = (name: string, input: unknown) =>
      builtinToolSpecs({ files: { descriptorPaths } })
        .find((t) => t.ref === `builtins.files.${name}`)!
        .execute(input, toolContext(ws));

    it('refuses a folder link in the middle that leads out, for read, write and list', async () => {
      await symlink(outside, path.join(ws, 'd/out'));
      const message = (p: string) => `path "${p}" resolves outside the workspace directory (through a symbolic link)`;
      expect(textOf(await run('read', { path: 'd/out/secret.txt' }))).toBe(message('d/out/secret.txt'));
      expect(textOf(await run('write', { path: 'd/out/new/x.txt', content: 'x' }))).toBe(message('d/out/new/x.txt'));
      expect(textOf(await run('list', { path: 'd/out' }))).toBe(message('d/out'));
      expect(await readdir(outside)).toEqual(['secret.txt']);
    });

    it('writes through a file link inside the workspace to its target, keeping the link', async () => {
      await symlink('d/inner.txt', path.join(ws, 'alias.txt'));
      expect(textOf(await run('write', { path: 'alias.txt', content: 'new', append: false }))).toBe('Wrote 3 bytes to alias.txt');
      expect(await readFile(path.join(ws, 'd/inner.txt'), 'utf8')).toBe('new');
      expect(textOf(await run('read', { path: 'alias.txt' }))).toBe('new');
      expect(textOf(await run('list', {}))).toBe('alias.txt (symbolic link)\nd/');
    });

    it('creates the target of a dangling link that stays inside', async () => {
      await symlink('later/made.txt', path.join(ws, 'pending'));
      expect((await run('write', { path: 'pending', content: 'made' })).isError).toBe(false);
      expect(await readFile(path.join(ws, 'later/made.txt'), 'utf8')).toBe('made');
    });
  });
}

describe('builtins.files writes', () => {
  const run = (name: string, input: unknown) =>
    builtinToolSpecs()
      .find((t) => t.ref === `builtins.files.${name}`)!
      .execute(input, toolContext(ws));

  it('replaces the name, not the file behind it: a hard link to a file outside keeps its content', async () => {
    await link(path.join(outside, 'secret.txt'), path.join(ws, 'hard.txt'));
    expect((await run('write', { path: 'hard.txt', content: 'replaced' })).isError).toBe(false);
    expect((await run('write', { path: 'hard.txt', content: '+more', append: true })).isError).toBe(false);
    expect(await readFile(path.join(ws, 'hard.txt'), 'utf8')).toBe('replaced+more');
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('keeps the permissions of a replaced file and leaves no temporary file behind', async () => {
    await chmod(path.join(ws, 'd/inner.txt'), 0o600);
    await run('write', { path: 'd/inner.txt', content: 'more', append: true });
    expect(await readFile(path.join(ws, 'd/inner.txt'), 'utf8')).toBe('innermore');
    expect((await stat(path.join(ws, 'd/inner.txt'))).mode & 0o777).toBe(0o600);
    expect(await readdir(path.join(ws, 'd'))).toEqual(['inner.txt']);
  });

  it('loses no append when one turn appends to the same file many times at once, also through a link', async () => {
    await symlink('d/log.txt', path.join(ws, 'log-link'));
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}\n`);
    const write = builtinToolSpecs().find((t) => t.ref === 'builtins.files.write')!; // one run's tools
    const results = await Promise.all(
      lines.map((content, i) => write.execute({ path: i % 2 ? 'log-link' : 'd/log.txt', content, append: true }, toolContext(ws))),
    );
    expect(results.filter((r) => r.isError)).toEqual([]);
    const written = (await readFile(path.join(ws, 'd/log.txt'), 'utf8')).split('\n').filter(Boolean);
    expect(written.sort()).toEqual(lines.map((l) => l.trim()).sort());
  });

  it('reports an I/O error with the path the model gave, not the descriptor path used', async () => {
    const long = 'n'.repeat(300);
    expect(textOf(await run('read', { path: `d/${long}` }))).toBe(`could not read d/${long}: name too long (ENAMETOOLONG)`);
    expect(textOf(await run('write', { path: `d/${long}/x`, content: 'x' }))).toBe(`could not write d/${long}/x: name too long (ENAMETOOLONG)`);
  });

  it('refuses special files without waiting on them', async () => {
    execFileSync('mkfifo', [path.join(ws, 'fifo')]);
    expect(textOf(await run('read', { path: 'fifo' }))).toBe('fifo is not a regular file');
    expect(textOf(await run('write', { path: 'fifo', content: 'x' }))).toBe('fifo is not a regular file');
    expect(textOf(await run('write', { path: 'd/inner.txt/x', content: 'x' }))).toBe('path "d/inner.txt/x" goes through a file that is not a directory');
    expect(existsSync(path.join(ws, 'fifo'))).toBe(true);
  });
});

describe('the workspace folder itself', () => {
  it('is refused once replaced by another folder during the run (here a link to outside)', async () => {
    const tools = builtinToolSpecs();
    const read = tools.find((t) => t.ref === 'builtins.files.read')!;
    expect(textOf(await read.execute({ path: 'd/inner.txt' }, toolContext(ws)))).toBe('inner');
    await rename(ws, path.join(tmp, 'ws-moved'));
    await symlink(outside, ws);
    const r = await read.execute({ path: 'secret.txt' }, toolContext(ws));
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(`the workspace directory ${ws} was replaced by another folder since the run started; refusing to use it`);
  });
});
