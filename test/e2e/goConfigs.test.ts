// Go Squadron's configs through the CLI: the storage block chooses where `run` stores runs (--db
// still wins), Go's input shorthand and quoted references run unchanged, and Go-only blocks and
// attributes are accepted with warnings that say what Squadron does instead.

import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The offline quickstart (a replay cassette), its mission text edited by `edit`. */
function quickstart(edit: (hcl: string) => string): string {
  const dir = tempDir('squadron-go-');
  made.push(dir);
  copyFileSync(join(REPO_ROOT, 'examples', 'quickstart', 'cassette.jsonl'), join(dir, 'cassette.jsonl'));
  writeFileSync(join(dir, 'mission.hcl'), edit(readFileSync(join(REPO_ROOT, 'examples', 'quickstart', 'mission.hcl'), 'utf8')));
  return dir;
}

const INPUT_BLOCK = /  input "topic" \{[^}]*\}\n/;

describe('storage { … }', () => {
  it('stores the run in the storage block\'s SQLite file, relative to the config; --db still wins', async () => {
    const dir = quickstart((h) => `${h}\nstorage {\n  backend = "sqlite"\n  path    = "runs/store.db"\n}\n`);
    const run = await runCli(['run', '.'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(dir, 'runs', 'store.db'))).toBe(true);
    expect(existsSync(join(dir, '.squadron', 'squadron.db'))).toBe(false);
    const runId = /^run (run_\w+)$/m.exec(run.stdout)![1]!;
    const listed = await runCli(['runs', '--db', 'runs/store.db'], { cwd: dir });
    expect(listed.stdout).toContain(runId);

    const flagged = await runCli(['run', '.', '--db', 'other.db'], { cwd: dir });
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(existsSync(join(dir, 'other.db'))).toBe(true);
    const again = await runCli(['runs', '--db', 'runs/store.db', '--json'], { cwd: dir });
    expect((JSON.parse(again.stdout) as { runs: unknown[] }).runs.length).toBe(1);
  });

  it('a postgres storage block without conn_string is GO001', async () => {
    const dir = quickstart((h) => `${h}\nstorage {\n  backend = "postgres"\n}\n`);
    const r = await runCli(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[GO001]: storage with backend = "postgres" needs conn_string');
  });
});

describe('Go attributes and blocks', () => {
  it('runs a mission whose input is written in Go\'s shorthand, with a quoted reference', async () => {
    const dir = quickstart((h) =>
      h
        .replace(INPUT_BLOCK, '  inputs = {\n    topic = string("What the facts are about", { default = "tide pools" })\n  }\n')
        .replace('tools     = [builtins.files.write, builtins.files.list]', 'tools     = ["builtins.files.write", builtins.files.list]'),
    );
    const r = await runCli(['run', '.'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning[REF004]: "builtins.files.write" is a string, not a reference: read as builtins.files.write');
    expect(r.stdout).toContain('fact_count');
  });

  it('validates Go-only blocks and attributes with warnings naming what Squadron does instead', async () => {
    const dir = quickstart((h) =>
      h
        .replace('  commander {', '  directive = "Shown in Go\'s UI only"\n  secret "token" {}\n  input "api_token" {\n    type      = "string"\n    protected = true\n    value     = "s3cr3t-value"\n  }\n  commander {') +
        '\ngateway {\n  kind = "slack"\n}\ncommand_center {\n  url           = "wss://cc.example"\n  instance_name = "dev"\n}\nagent "helper" {\n  model       = models.offline.claude_haiku_4_5\n  personality = "Helpful"\n  role        = "Assistant"\n}\n',
    );
    const r = await runCli(['validate', '.'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    for (const code of ['GO002', 'GO004', 'GO005', 'GO007']) expect(r.stderr).toContain(`warning[${code}]`);
    expect(r.stderr).toContain('the gateway block of Go Squadron is ignored here');
    expect(r.stderr).not.toContain('s3cr3t-value');
    const plan = await runCli(['plan', '.', '--json'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain('api_token');
  });

  it('a command_center without url is rejected, as Go rejects it', async () => {
    const dir = quickstart((h) => `${h}\ncommand_center {\n  instance_name = "dev"\n}\n`);
    const r = await runCli(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[GO003]: command_center needs url');
  });
});

describe('mcp source, model keys and prompt_caching', () => {
  const extra = (mcp: string, agentModel: string) =>
    `\n${mcp}\nmodel "oa" {\n  provider       = "openai"\n  api_key        = "sk-test-1234"\n  prompt_caching = false\n}\nagent "x" {\n  model       = models.oa.${agentModel}\n  personality = "p"\n}\n`;
  const npm = 'mcp "everything" {\n  source    = "npm:@modelcontextprotocol/server-everything"\n  version   = "2025.9.12"\n  client_id = "abc"\n}';

  it('an npm source is a stdio server; client_id and prompt_caching = false warn; gpt_5_3_codex is a key', async () => {
    const dir = quickstart((h) => h + extra(npm, 'gpt_5_3_codex'));
    const r = await runCli(['validate', '.', '--offline'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('mcp        everything (stdio)');
    expect(r.stderr).toContain('warning[GO009]');
    expect(r.stderr).toContain('warning[GO010]');
  });

  it('a github.com source is GO008 and a retired key (o1) stays MOD002', async () => {
    const dir = quickstart((h) => h + extra('mcp "gh" {\n  source  = "github.com/acme/server"\n  version = "v1.0.0"\n}', 'o1'));
    const r = await runCli(['validate', '.', '--offline'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[GO008]: mcp "gh": a github.com source is not downloaded or built here');
    expect(r.stderr).toContain('error[MOD002]: models.oa.o1 (o1) was retired by OpenAI on 2026-10-23');
  });
});

describe('squadron fmt unquotes quoted references', () => {
  it('applies the REF004 fix, after which validate has no warning, and leaves other strings alone', async () => {
    const dir = quickstart((h) => h.replace('tools     = [builtins.files.write, builtins.files.list]', 'tools     = ["builtins.files.write", builtins.files.list]'));
    const before = await runCli(['validate', '.'], { cwd: dir });
    expect(before.stderr).toContain('warning[REF004]');
    const f = await runCli(['fmt', '.'], { cwd: dir });
    expect(f.code, f.stderr).toBe(0);
    const text = readFileSync(join(dir, 'mission.hcl'), 'utf8');
    expect(text).toContain('tools     = [builtins.files.write, builtins.files.list]');
    expect(text).toContain('cassette = "./cassette.jsonl"');
    const after = await runCli(['validate', '.'], { cwd: dir });
    expect(after.code).toBe(0);
    expect(after.stderr).not.toContain('REF004');
  });
});

describe('hints that know the names of the first implementation', () => {
  it('scratchpad and memories validate; the folders, folder and run_folder Go retired are errors whose hints name what replaced them', async () => {
    const ok = quickstart((h) => h.replace('  commander {', '  scratchpad = true\n  memories   = []\n  commander {'));
    const good = await runCli(['validate', '.'], { cwd: ok });
    expect(good.code, good.stderr).toBe(0);

    const dir = quickstart((h) => h.replace('  commander {', '  folders = []\n  folder {}\n  run_folder {}\n  commander {'));
    const r = await runCli(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('= hint: the `folders` attribute is no longer supported: use memories = [memories.NAME, ...]');
    expect(r.stderr).toContain('= hint: the `folder { ... }` block is no longer supported: use memory { description = "..." }');
    expect(r.stderr).toContain('= hint: the `run_folder { ... }` block is no longer supported: use scratchpad = true');
    expect(r.stderr).not.toContain('did you mean');
  });
});

describe('trigger { } as Go writes it', () => {
  it('webhook_path defaults to the mission name; without a secret it loads with a warning and serve refuses its deliveries; two missions cannot share a path', async () => {
    const dir = quickstart((h) => h.replace('  commander {', '  trigger {}\n  commander {'));
    const r = await runCli(['validate', '.'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning[GO013]');
    expect(r.stderr).toContain('has no secret: squadron serve refuses its deliveries until one is set');

    const twice = quickstart((h) => {
      const second = h.replace(/mission "(\w+)"/, 'mission "$1_again"');
      return `${h.replace('  commander {', '  trigger { webhook_path = "/shared" }\n  commander {')}\n${second.replace('  commander {', '  trigger { webhook_path = "shared" }\n  commander {').replace(/^(model|variable) "[^"]*" \{[\s\S]*?^\}\n/gm, '')}`;
    });
    const t = await runCli(['validate', '.'], { cwd: twice });
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/error\[SCH008\]: mission "\w+_again" trigger: webhook_path "\/shared" conflicts with mission "\w+"/);
  });
});

describe('squadron docs migrate-from-go', () => {
  it('prints the page listing what differs', async () => {
    const r = await runCli(['docs', 'migrate-from-go'], { env: { PAGER: 'cat' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Accepted with a warning');
    expect(r.stdout).toContain('storage');
    // `squadron chat` exists: the page points to it, and no longer lists it as missing.
    expect(r.stdout).toContain('squadron docs chat');
    const missing = r.stdout.slice(r.stdout.indexOf('Not supported yet'));
    expect(missing).not.toMatch(/^\s*[-•*]\s*`?squadron chat/m);
  });
});
