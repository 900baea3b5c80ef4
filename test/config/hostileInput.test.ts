// Hostile or accidental inputs through the built CLI (dist/cli/main.cjs): nesting thousands deep,
// flat chains of thousands of terms, long task chains, FIFOs and devices where files are expected,
// binary files, load() through a symlink or of a huge file, half-written expressions. Each must
// end in diagnostics with a position, in text and JSON, never in a hang or a stack overflow.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { removeTempProjects, tempProject, withMission } from './support.js';

const outside: string[] = [];
afterAll(() => {
  removeTempProjects();
  for (const dir of outside) rmSync(dir, { recursive: true, force: true });
});
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`build the CLI first (npm run build): ${CLI} is missing`);
});

/** A hang must fail the test, not stall the suite. */
// Bounds a hang, not a speed: the 8,000-task chain takes ~2 s of CPU and over 20 s of wall time on 2
// cores at load 40.
const QUICK = { timeoutMs: 120_000 };

const task = (name: string, extra = ''): string => `  task "${name}" {\n    objective = "x"\n    tools     = [builtins.http.get]\n${extra}  }\n`;

/** Codes of the JSON diagnostics of `squadron validate --format json`. */
async function jsonCodes(dir: string, args: string[] = []): Promise<string[]> {
  const r = await runCli(['validate', ...args, '--format', 'json'], { cwd: dir, ...QUICK });
  const out = JSON.parse(r.stdout) as { diagnostics: { code: string }[] };
  return out.diagnostics.map((d) => d.code);
}

function mkfifo(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr.toString()}`);
}

/** Bytes that are not UTF-8 (a deterministic pseudo-random file, like a stray binary). */
function binaryBytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  let x = 12345;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x >> 16;
  }
  return out;
}

describe('nesting and long chains', () => {
  test('parentheses nested 5,000 deep are one SYN030 with a position, in text and in JSON', async () => {
    const dir = tempProject({ 'main.hcl': `variable "x" {\n  default = ${'('.repeat(5000)}1${')'.repeat(5000)}\n}\n` });
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.code).toBe(1);
    // The block is level 1, the value level 2: the 255th "(" opens the 257th level.
    expect(r.stderr).toMatch(/^main\.hcl:2:268: error\[SYN030\]: Expression nested too deeply/);
    expect(r.stderr).not.toContain('Maximum call stack');
    expect(await jsonCodes(dir)).toEqual(['SYN030']);
  });

  test('blocks, unary operators, template directives and computed indexes nested thousands deep are SYN030 each', async () => {
    const src = [
      `variable "a" {\n  default = ${'-'.repeat(20000)}1\n}\n`,
      `variable "b" {\n  default = "${'%{if true}'.repeat(3000)}x${'%{endif}'.repeat(3000)}"\n}\n`,
      `variable "c" {\n  default = "${'${"'.repeat(3000)}x${'"}'.repeat(3000)}"\n}\n`,
      `variable "d" {\n  default = x${'[y]'.repeat(5000)}\n}\n`,
      `${'a {\n'.repeat(5000)}${'}\n'.repeat(5000)}`,
    ].join('');
    const dir = tempProject({ 'main.hcl': src });
    const codes = await jsonCodes(dir);
    expect(codes.filter((c) => c === 'SYN030')).toHaveLength(5);
    expect(codes.filter((c) => c !== 'SYN030')).toEqual(['SCH002']); // the unknown block "a"
  });

  test('a flat chain of 10,000 terms is no nesting: it evaluates, left to right', async () => {
    const sum = Array(10_000).fill('1').join(' + ');
    const difference = ['30000', ...Array(9_999).fill('1')].join(' - ');
    const dir = tempProject({ 'main.hcl': withMission(`  max_parallel = (${sum}) + (${difference})\n${task('a')}`) });
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 task, max_parallel 30001');
  });

  test('a chain of 8,000 tasks in depends_on validates', async () => {
    let tasks = task('t0');
    for (let i = 1; i < 8000; i++) tasks += task(`t${i}`, `    depends_on = [tasks.t${i - 1}]\n`);
    const dir = tempProject({ 'main.hcl': withMission(tasks) });
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('8000 tasks');
  });

  test('on a smaller stack than ours, a file that still overflows is one diagnostic, not a crash', () => {
    // 255 levels pass the nesting bound; a 100 KiB stack cannot hold them, so the safety net acts.
    const dir = tempProject({ 'main.hcl': `variable "x" {\n  default = ${'('.repeat(254)}1${')'.repeat(254)}\n}\n` });
    const r = spawnSync(process.execPath, ['--stack-size=100', CLI, 'validate'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^main\.hcl:[12]:\d+: error\[(SYN030|EVAL016)\]/);
    expect(r.stderr).not.toContain('--debug');
  });
});

describe('files that are not what they seem', () => {
  test('a FIFO named SKILL.md is SKL003 "is not a regular file", not a hang', async () => {
    const dir = tempProject({ 'main.hcl': `skills_dir = "./skills"\n${withMission(task('a'))}` });
    mkdirSync(join(dir, 'skills', 'stuck'), { recursive: true });
    mkfifo(join(dir, 'skills', 'stuck', 'SKILL.md'));
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('skills/stuck/SKILL.md:1:1: error[SKL003]: stuck/SKILL.md is not a regular file');
  });

  test('validate of /dev/null or of a FIFO says it is not a regular file or a directory', async () => {
    const dir = tempProject({});
    mkfifo(join(dir, 'pipe.hcl'));
    for (const [arg, full] of [['/dev/null', '/dev/null'], ['pipe.hcl', join(dir, 'pipe.hcl')]] as const) {
      const r = await runCli(['validate', arg], { cwd: dir, ...QUICK });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${arg}: error[FIL004]: config path ${full} is not a regular file or a directory`);
    }
  });

  test('a binary .hcl file is one FIL008, not hundreds of syntax errors', async () => {
    const dir = tempProject({ 'main.hcl': withMission(task('a')) });
    writeFileSync(join(dir, 'junk.hcl'), binaryBytes(3 * 1024));
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^junk\.hcl: error\[FIL008\]: \S+junk\.hcl is not UTF-8 text; it is skipped\n/);
    expect(await jsonCodes(dir)).toEqual(['FIL008']);
  });

  test('a binary SKILL.md is SKL003 "is not UTF-8 text"', async () => {
    const dir = tempProject({ 'main.hcl': `skills_dir = "./skills"\n${withMission(task('a'))}` });
    mkdirSync(join(dir, 'skills', 'blob'), { recursive: true });
    writeFileSync(join(dir, 'skills', 'blob', 'SKILL.md'), binaryBytes(2048));
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.stderr).toContain('error[SKL003]: blob/SKILL.md is not UTF-8 text');
  });
});

describe('load()', () => {
  const agent = (arg: string): string => `agent "helper" {\n  model       = models.claude.claude_sonnet_5_5\n  personality = load("${arg}")\n}\n`;

  test('a symlink inside the project that leads out of it is FIL002', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'squadron-outside-'));
    outside.push(elsewhere);
    writeFileSync(join(elsewhere, 'secret.md'), 'not for the model');
    const dir = tempProject({ 'main.hcl': `${withMission(task('a'))}${agent('notes.md')}` });
    symlinkSync(join(elsewhere, 'secret.md'), join(dir, 'notes.md'));
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error[FIL002]: load("notes.md"): ${join(dir, 'notes.md')} is a link to ${join(elsewhere, 'secret.md')}, outside the project root`);
  });

  test('a symlink that stays inside the project is fine', async () => {
    const dir = tempProject({ 'main.hcl': `${withMission(task('a'))}${agent('notes.md')}`, 'docs/real.md': 'be helpful' });
    symlinkSync(join(dir, 'docs', 'real.md'), join(dir, 'notes.md'));
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.code).toBe(0);
  });

  test('a file over 1 MiB is FIL009; a binary one FIL008; a FIFO FIL004', async () => {
    const dir = tempProject({ 'main.hcl': `${withMission(task('a'))}${agent('big.md')}`.replace('agent "helper"', 'agent "big"') + agent('blob.md').replace('"helper"', '"blob"') + agent('pipe.md').replace('"helper"', '"pipe"') });
    writeFileSync(join(dir, 'big.md'), 'x'.repeat(1024 * 1024 + 1));
    writeFileSync(join(dir, 'blob.md'), binaryBytes(512));
    mkfifo(join(dir, 'pipe.md'));
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error[FIL009]: load("big.md"): ${join(dir, 'big.md')} is larger than 1 MiB (1048577 bytes)`);
    expect(r.stderr).toContain(`error[FIL008]: load("blob.md"): ${join(dir, 'blob.md')} is not UTF-8 text`);
    expect(r.stderr).toContain(`error[FIL004]: load("pipe.md"): ${join(dir, 'pipe.md')} is not a regular file`);
  });
});

describe('half-written expressions', () => {
  test('an unfinished interpolation at the end of the file is only its syntax error', async () => {
    const dir = tempProject({ 'main.hcl': 'variable "x" {\n  default = "abc${' });
    expect(await jsonCodes(dir)).toEqual(['SYN015']);
  });

  test('a reference ending in a dot is only its syntax error', async () => {
    const dir = tempProject({ 'main.hcl': 'toolset "t" {\n  tools = [builtins.files.' });
    expect(await jsonCodes(dir)).toEqual(['SYN021']);
  });

  test('a list nested too deeply is only its syntax error, not also a type error', async () => {
    const dir = tempProject({ 'main.hcl': `variable "x" {\n  default = ${'['.repeat(400)}${']'.repeat(400)}\n}\n` });
    expect(await jsonCodes(dir)).toEqual(['SYN030']);
  });
});

describe('related locations', () => {
  test('are shown relative to the working directory, like the diagnostic itself', async () => {
    const skill = (desc: string): string => `---\nname: deploy\ndescription: ${desc}\n---\nDo it.\n`;
    const dir = tempProject({
      'cfg/main.hcl': `model "claude" {\n  provider = "anthropic"\n  provider = "openai"\n}\nmodel "claude" {\n  provider = "openai"\n}\nskills_dir = ["./a", "./b"]\n`,
      'cfg/a/deploy/SKILL.md': skill('from a'),
      'cfg/b/deploy/SKILL.md': skill('from b'),
    });
    const r = await runCli(['validate', 'cfg'], { cwd: dir, ...QUICK });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cfg/main.hcl:3:3: error[SYN009]: Attribute redefined: The argument "provider" may be set only once (first set at cfg/main.hcl:2:3)');
    expect(r.stderr).toContain('cfg/main.hcl:5:7: error[SCH008]: model "claude" is declared twice (first at cfg/main.hcl:1:7)');
    expect(r.stderr).toContain('cfg/b/deploy/SKILL.md:1:1: error[SKL040]: skill "deploy" is defined twice (first defined at cfg/a/deploy/SKILL.md:1:1)');
    expect(r.stderr).not.toContain(dir);
    const json = JSON.parse((await runCli(['validate', 'cfg', '--format', 'json'], { cwd: dir, ...QUICK })).stdout) as { diagnostics: { code: string; message: string; related?: unknown }[] };
    expect(json.diagnostics.find((d) => d.code === 'SYN009')).toMatchObject({
      message: 'Attribute redefined: The argument "provider" may be set only once (first set at cfg/main.hcl:2:3)',
      related: { label: 'first set at', file: 'cfg/main.hcl', line: 2, column: 3 },
    });
  });
});

describe('conversions', () => {
  test('"0x4" is not a number: max_parallel = "0x4" is SCH007', async () => {
    const dir = tempProject({ 'main.hcl': withMission(`  max_parallel = "0x4"\n${task('a')}`) });
    const r = await runCli(['validate'], { cwd: dir, ...QUICK });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[SCH007]: expected a number, got "0x4"');
  });
});
