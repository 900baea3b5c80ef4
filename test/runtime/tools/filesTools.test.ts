import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { builtinToolSpecs, type BuiltinOptions } from '../../../runtime/tools/builtins/index.js';
import type { ToolSpec } from '../../../runtime/tools/types.js';
import { textOf, toolContext } from './toolContext.js';

let tmp: string;
let ws: string;
let outside: string;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'squadron-files-'));
  ws = path.join(tmp, 'ws');
  outside = path.join(tmp, 'outside');
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'top secret');
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function tool(name: string, options: BuiltinOptions = {}): ToolSpec {
  return builtinToolSpecs(options).find((t) => t.ref === `builtins.files.${name}`)!;
}

const run = (name: string, input: unknown, options: BuiltinOptions = {}) => tool(name, options).execute(input, toolContext(ws));

describe('builtins.files normal use', () => {
  it('writes a file creating its folders, then reads it back', async () => {
    const w = await run('write', { path: 'notes/day1/log.txt', content: 'héllo\n' });
    expect(w).toEqual({ isError: false, content: [{ type: 'text', text: 'Wrote 7 bytes to notes/day1/log.txt' }] });
    expect(await readFile(path.join(ws, 'notes/day1/log.txt'), 'utf8')).toBe('héllo\n');
    const r = await run('read', { path: 'notes/day1/log.txt' });
    expect(textOf(r)).toBe('héllo\n');
  });

  it('appends when asked and replaces otherwise', async () => {
    await run('write', { path: 'a.txt', content: 'one\n' });
    const a = await run('write', { path: 'a.txt', content: 'two\n', append: true });
    expect(textOf(a)).toBe('Appended 4 bytes to a.txt');
    expect(await readFile(path.join(ws, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    await run('write', { path: 'a.txt', content: 'three' });
    expect(await readFile(path.join(ws, 'a.txt'), 'utf8')).toBe('three');
  });

  it('caps reads and says so', async () => {
    await writeFile(path.join(ws, 'big.txt'), 'abcdefghij');
    expect(textOf(await run('read', { path: 'big.txt', max_bytes: 4 }))).toBe('abcd\n\n[truncated: big.txt is 10 bytes; showing the first 4]');
    expect(textOf(await run('read', { path: 'big.txt', max_bytes: 100 }, { files: { maxReadBytes: 3 } }))).toMatch(/^abc\n\n\[truncated/);
  });

  it('reports missing files, folders and binary files as error results', async () => {
    await mkdir(path.join(ws, 'dir'));
    await writeFile(path.join(ws, 'bin.dat'), Buffer.from([1, 0, 2]));
    const missing = await run('read', { path: 'nope.txt' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe('no such file: nope.txt');
    expect(textOf(await run('read', { path: 'dir' }))).toMatch(/is a directory/);
    expect(textOf(await run('read', { path: 'bin.dat' }))).toMatch(/looks like a binary file/);
    expect(textOf(await run('write', { path: 'dir', content: 'x' }))).toMatch(/is a directory/);
  });

  it('lists a folder sorted, with sizes, and recursively on request', async () => {
    await mkdir(path.join(ws, 'b/inner'), { recursive: true });
    await writeFile(path.join(ws, 'b/inner/deep.txt'), '12345');
    await writeFile(path.join(ws, 'a.txt'), 'abc');
    await writeFile(path.join(ws, 'c.txt'), '');
    expect(textOf(await run('list', {}))).toBe('a.txt (3 bytes)\nb/\nc.txt (0 bytes)');
    expect(textOf(await run('list', { recursive: true }))).toBe('a.txt (3 bytes)\nb/\nb/inner/\nb/inner/deep.txt (5 bytes)\nc.txt (0 bytes)');
    expect(textOf(await run('list', { path: 'b', recursive: true }))).toBe('b/inner/\nb/inner/deep.txt (5 bytes)');
  });

  it('bounds the number of listed entries', async () => {
    for (const n of [1, 2, 3, 4, 5]) await writeFile(path.join(ws, `f${n}.txt`), '');
    const r = await run('list', {}, { files: { maxListEntries: 3 } });
    expect(textOf(r)).toBe('f1.txt (0 bytes)\nf2.txt (0 bytes)\nf3.txt (0 bytes)\n[listing stopped after 3 entries]');
  });

  it('says when a folder is empty', async () => {
    expect(textOf(await run('list', {}))).toBe('. is empty');
  });

  it('accepts .. that stays inside the workspace', async () => {
    await run('write', { path: 'a/../b.txt', content: 'x' });
    expect(existsSync(path.join(ws, 'b.txt'))).toBe(true);
  });

  it('works when the workspace path itself goes through a symbolic link', async () => {
    const alias = path.join(tmp, 'alias');
    await symlink(ws, alias);
    const w = await tool('write').execute({ path: 'x.txt', content: 'via alias' }, toolContext(alias));
    expect(w.isError).toBe(false);
    expect(await readFile(path.join(ws, 'x.txt'), 'utf8')).toBe('via alias');
  });

  it('follows a symbolic link that stays inside the workspace', async () => {
    await writeFile(path.join(ws, 'real.txt'), 'real');
    await symlink(path.join(ws, 'real.txt'), path.join(ws, 'link.txt'));
    expect(textOf(await run('read', { path: 'link.txt' }))).toBe('real');
  });
});

describe('builtins.files confinement', () => {
  it('rejects .. escapes', async () => {
    for (const p of ['../outside/secret.txt', 'a/../../outside/secret.txt', '..']) {
      const r = await run('read', { path: p });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(`path "${p}" leaves the workspace directory`);
    }
    const w = await run('write', { path: '../outside/new.txt', content: 'x' });
    expect(w.isError).toBe(true);
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  it('rejects absolute paths, even ones inside the workspace', async () => {
    for (const p of [path.join(outside, 'secret.txt'), path.join(ws, 'x.txt'), '/etc/passwd']) {
      const r = await run('read', { path: p });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/is absolute; give a path relative to the workspace directory/);
    }
  });

  it('rejects reading and listing through a symbolic link that leaves the workspace', async () => {
    await symlink(outside, path.join(ws, 'out'));
    const r = await run('read', { path: 'out/secret.txt' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('path "out/secret.txt" resolves outside the workspace directory (through a symbolic link)');
    expect((await run('list', { path: 'out' })).isError).toBe(true);
  });

  it('refuses to write through a symbolic link that leaves the workspace', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(ws, 'secret-link'));
    await symlink(outside, path.join(ws, 'out'));
    const viaFile = await run('write', { path: 'secret-link', content: 'overwritten' });
    expect(viaFile.isError).toBe(true);
    const viaDir = await run('write', { path: 'out/sub/new.txt', content: 'x' });
    expect(viaDir.isError).toBe(true);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(existsSync(path.join(outside, 'sub'))).toBe(false);
  });

  it('refuses a dangling symbolic link that points outside, without creating its target', async () => {
    await symlink(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
    const r = await run('write', { path: 'dangling', content: 'x' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('path "dangling" resolves outside the workspace directory (through a symbolic link)');
    expect(existsSync(path.join(outside, 'not-yet.txt'))).toBe(false);
  });

  it('lists symbolic links without following them', async () => {
    await symlink(outside, path.join(ws, 'out'));
    expect(textOf(await run('list', { recursive: true }))).toBe('out (symbolic link)');
  });
});
