// End-to-end: skills from HCL blocks and SKILL.md folders. A broken folder is a diagnostic with its
// file and line while its siblings load; the catalog is in the worker's system prompt; load_skill
// returns the instructions and adds the skill's tools to the NEXT request the model receives (and
// not before); `$name` in an objective preloads a skill, an ambiguous one warns, `$HOME` is no mention.

import type { ChildProcess } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import {
  ANTHROPIC_MODEL,
  fakeModelBlock,
  latestToolResults,
  openRunDb,
  requestsOf,
  resultText,
  storedEvents,
  toolNames,
  workerOf,
  writeProject,
  removeProjects,
  OFFLINE_MODEL_BLOCK,
} from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript, type TurnReply } from '../support/turnScript.js';

// Each test spawns the CLI several times; the machine may be shared and slow.
afterAll(removeProjects);

const WEB_SCRAPING_MD = `---
name: web-scraping
description: Scrape web pages and clean their HTML.
license: MIT
---
# Web scraping

Strip every <script> tag before reading a page.
`;

function hcl(server: FakeModelServer | undefined, opts: { objective: string; extraSkills?: string; taskSkills?: string }): string {
  const model = server ? fakeModelBlock(server) : OFFLINE_MODEL_BLOCK;
  return `${model}
skills_dir = "./skills"

skill "summarize" {
  description  = "Summarize findings as three bullets"
  instructions = "Write exactly three bullets, most important first."
  tools        = [builtins.utils.current_time]
}

skill "home" {
  description  = "Work on the home page"
  instructions = "HOME-SKILL-INSTRUCTIONS"
}
${opts.extraSkills ?? ''}
mission "skills" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "work" {
    objective = "${opts.objective}"
    tools     = [builtins.files.read]
    skills    = ${opts.taskSkills ?? '[skills.summarize, skills.web-scraping]'}
  }
}
`;
}

function commanderRule(): TurnReply[] {
  return [callAgent('worker', 'Do the work.'), (req) => taskComplete(`Worker said: ${lastToolResult(req)}`)];
}

describe('skill folders: errors as data', () => {
  it('reports a broken SKILL.md with file:line while its sibling loads and resolves', async () => {
    const dir = writeProject({
      'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD,
      'skills/broken/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\nbody\n',
      'mission.hcl': hcl(undefined, { objective: 'Work.' }),
    });
    const json = await runCli(['validate', dir, '--format', 'json'], { cwd: dir });
    expect(json.code).toBe(0); // a broken skill is skipped with a warning; the config stays valid
    const doc = JSON.parse(json.stdout) as { diagnostics: { code: string; file: string; line: number; severity: string }[] };
    // Exactly the broken folder is reported: the task's reference to skills.web-scraping resolved,
    // so the sibling (and the HCL skills) loaded.
    expect(doc.diagnostics.map((d) => [d.severity, d.code, d.file, d.line])).toEqual([['warning', 'SKL012', 'skills/broken/SKILL.md', 3]]);

    const text = await runCli(['validate', '.'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('skills/broken/SKILL.md:3:14: warning[SKL012]');
    expect(text.stderr).toContain('(the skill is skipped)');
    expect(text.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('reports a name used by an HCL skill and a folder skill as an error naming both places', async () => {
    const dir = writeProject({
      'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD,
      'skills/summarize/SKILL.md': '---\nname: summarize\ndescription: A second summarize.\n---\nBody.\n',
      'mission.hcl': hcl(undefined, { objective: 'Work.' }),
    });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('skills/summarize/SKILL.md:1:1: error[SKL040]: skill "summarize" is defined twice');
    const line = readFileSync(join(dir, 'mission.hcl'), 'utf8').split('\n').indexOf('skill "summarize" {') + 1;
    expect(result.stderr).toContain(`mission.hcl:${line}`);
  });

  it('lists folder and HCL skills once the config is valid', async () => {
    const dir = writeProject({ 'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD, 'mission.hcl': hcl(undefined, { objective: 'Work.' }) });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/skills\s+summarize, home, web-scraping/);
  });
});

describe('skills at run time, as the model receives them', () => {
  it('load_skill returns the instructions and its tools reach the next request, not before', async () => {
    const turns = turnScript({
      'commander of task "work"': commanderRule(),
      'worker agent of task "work"': [
        // The skill's tool is not callable before the skill is loaded.
        toolCall('builtins_utils_current_time', {}),
        toolCall('load_skill', { name: 'summarize' }),
        toolCall('builtins_utils_current_time', {}),
        toolCall('load_skill', { name: 'web-scraping' }),
        { text: 'Loaded both skills.' },
      ],
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({ 'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD, 'mission.hcl': hcl(server, { objective: 'Summarize the notes.' }) });
      const run = await runCli(['run', dir], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);

      const requests = requestsOf(server, workerOf('work'));
      expect(requests).toHaveLength(5);
      // The catalog is in the system prompt of every request.
      for (const r of requests) {
        expect(r.canonical.system).toContain('## Skills');
        expect(r.canonical.system).toContain('- `summarize`: Summarize findings as three bullets');
        expect(r.canonical.system).toContain('- `web-scraping`: Scrape web pages and clean their HTML.');
      }
      expect(toolNames(requests[0])).toEqual(['builtins_files_read', 'load_skill']);

      const refused = latestToolResults(requests[1]!)[0]!;
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toContain('Unknown tool "builtins_utils_current_time"');
      expect(toolNames(requests[1])).toEqual(['builtins_files_read', 'load_skill']);

      const loaded = latestToolResults(requests[2]!)[0]!;
      expect(loaded.isError).toBe(false);
      expect(resultText(loaded)).toContain('Skill `summarize` is loaded');
      expect(resultText(loaded)).toContain('Write exactly three bullets, most important first.');
      expect(resultText(loaded)).toContain('Tools added by this skill (callable from your next turn): builtins_utils_current_time.');
      expect(toolNames(requests[2])).toEqual(['builtins_files_read', 'load_skill', 'builtins_utils_current_time']);

      const time = latestToolResults(requests[3]!)[0]!;
      expect(time.isError).toBe(false);
      expect(resultText(time)).toMatch(/\d{4}-\d{2}-\d{2}/);

      const folder = resultText(latestToolResults(requests[4]!)[0]);
      expect(folder).toContain('Skill `web-scraping` is loaded');
      expect(folder).toContain('Strip every <script> tag before reading a page.');
      expect(folder).toContain(`Files this skill mentions by relative path are in ${join(realpathSync(dir), 'skills', 'web-scraping')}`);
      // A folder skill grants no tools: the list is unchanged.
      expect(toolNames(requests[4])).toEqual(toolNames(requests[3]));

      expect(run.stderr).toContain('worker[work] loaded skill summarize (load_skill)');
      const db = openRunDb(dir);
      const calls = db.prepare('SELECT tool_ref, status, is_error FROM tool_calls ORDER BY id').all() as { tool_ref: string; status: string; is_error: number }[];
      const loadedRefs = db.prepare('SELECT ref FROM loaded_tools ORDER BY loaded_at, ref').all() as { ref: string }[];
      db.close();
      // The refused call never reached the ledger; the unlocked one executed.
      expect(calls.filter((c) => c.tool_ref === 'builtins.utils.current_time')).toEqual([{ tool_ref: 'builtins.utils.current_time', status: 'completed', is_error: 0 }]);
      expect(loadedRefs.map((r) => r.ref).sort()).toEqual(['skill:summarize', 'skill:web-scraping']);
    } finally {
      await server.close();
    }
  });

  it('preloads a $mentioned skill, ignoring $HOME and $PATH', async () => {
    const turns = turnScript({ 'commander of task "work"': commanderRule(), 'worker agent of task "work"': [{ text: 'ok' }] });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const objective = 'Use $summarize on the notes in $HOME and $PATH.';
      const dir = writeProject({ 'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD, 'mission.hcl': hcl(server, { objective }) });
      const run = await runCli(['run', dir], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      const first = requestsOf(server, workerOf('work'))[0]!;
      expect(first.canonical.system).toContain('Skill `summarize` is loaded. Follow these instructions for work it covers:\n\nWrite exactly three bullets');
      // Loaded up front: its tool is there from the first request, and it is not offered again.
      expect(toolNames(first)).toEqual(['builtins_files_read', 'builtins_utils_current_time', 'load_skill']);
      expect(first.canonical.system).not.toContain('- `summarize`:');
      expect(first.canonical.system).toContain('- `web-scraping`:');
      // `$HOME` would case-fold to the skill "home": it is an environment variable, never a mention.
      expect(first.canonical.system).not.toContain('HOME-SKILL-INSTRUCTIONS');
      expect(run.stderr).not.toContain('warning');
      expect(run.stderr).toContain('worker[work] loaded skill summarize (mention)');
      expect(storedEvents(dir, 'skill.loaded')).toEqual([expect.objectContaining({ skill: 'summarize', how: 'mention', agent: 'worker' })]);
    } finally {
      await server.close();
    }
  });

  it('takes mentions only from the objective the author wrote, never from interpolated input values', async () => {
    const dir = writeProject({
      'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD,
      'mission.hcl': hcl(undefined, { objective: 'Answer the ticket: ${inputs.ticket}' }).replace(
        'mission "skills" {',
        'mission "skills" {\n  input "ticket" {\n    type = "string"\n  }',
      ),
    });
    const plan = await runCli(['plan', dir, '--json', '--show-prompt', '-i', 'ticket=please run $summarize and [$home](skill://home)'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    const worker = JSON.parse(plan.stdout).tasks[0].agents[0];
    // The text reaches the model as data...
    expect(worker.system_prompt).toContain('please run $summarize');
    // ...but loads nothing and unlocks no tool.
    expect(worker.system_prompt).not.toContain('is loaded');
    expect(worker.system_prompt).not.toContain('HOME-SKILL-INSTRUCTIONS');
    expect(worker.first_request_tools).toEqual(['builtins_files_read', 'load_skill']);
    expect(worker.skills).toEqual([
      { name: 'summarize', via: 'task' },
      { name: 'web-scraping', via: 'task' },
    ]);
  });

  it('keeps a loaded skill and its tools across a kill and resume', async () => {
    const worker: TurnReply[] = [toolCall('load_skill', { name: 'summarize' }), toolCall('builtins_utils_current_time', {}), { text: 'It is late.' }];
    const script = { 'commander of task "work"': commanderRule(), 'worker agent of task "work"': worker };
    const first = turnScript(script);
    const server = await startFakeModelServer({ respond: first.respond });
    let child: ChildProcess | undefined;
    server.onRequest = (_n, req) => {
      const turn = req.canonical.messages.filter((m) => m.role === 'assistant').length;
      if (req.canonical.system.includes(workerOf('work')) && turn === 1) child?.kill('SIGKILL');
    };
    const dir = writeProject({ 'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD, 'mission.hcl': hcl(server, { objective: 'Tell the time.' }) });
    let killed;
    try {
      killed = await runCli(['run', dir], { cwd: dir, onSpawn: (c) => (child = c) });
    } finally {
      await server.close();
    }
    expect(killed.signal).toBe('SIGKILL');
    const runId = /run (run_\w+)/.exec(killed.stdout)?.[1];
    expect(toolNames(requestsOf(server, workerOf('work'))[1])).toEqual(['builtins_files_read', 'load_skill', 'builtins_utils_current_time']);

    const second = turnScript(script);
    const again = await startFakeModelServer({ respond: second.respond });
    try {
      // The model block now points at the new server: a config change resume must be allowed to accept.
      writeFileSync(join(dir, 'mission.hcl'), hcl(again, { objective: 'Tell the time.' }));
      const resumed = await runCli(['resume', runId!, '--db', '.squadron/squadron.db', '--allow-config-change'], { cwd: dir });
      expect(second.problems).toEqual([]);
      expect(resumed.code, resumed.stderr).toBe(0);
      const after = requestsOf(again, workerOf('work'));
      expect(toolNames(after[0])).toEqual(['builtins_files_read', 'load_skill', 'builtins_utils_current_time']);
      const time = latestToolResults(after[1]!)[0]!;
      expect([time.isError, resultText(time)]).toEqual([false, expect.stringMatching(/\d{4}-\d{2}-\d{2}/)]);
    } finally {
      await again.close();
    }
  });

  it('ignores an ambiguous plain $mention with a warning, and the linked form picks one', async () => {
    const extraSkills = `
skill "web_scraping" {
  description  = "Scrape pages the HCL way"
  instructions = "HCL-SCRAPING-INSTRUCTIONS"
}
`;
    const taskSkills = '[skills.web_scraping, skills.web-scraping]';
    const turns = turnScript({ 'commander of task "work"': commanderRule(), 'worker agent of task "work"': [{ text: 'ok' }] });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const ambiguous = 'Scrape with $web-scraping.';
      const dir = writeProject({ 'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD, 'mission.hcl': hcl(server, { objective: ambiguous, extraSkills, taskSkills }) });
      const plan = await runCli(['plan', dir, '--json'], { cwd: dir });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stderr).toContain('warning[SKL041]');
      const worker = JSON.parse(plan.stdout).tasks[0].agents[0];
      expect(worker.warnings).toEqual([expect.stringContaining('$web-scraping is ambiguous')]);

      const run = await runCli(['run', dir], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      // The load-time warning ends its own paragraph; nothing else is glued to it.
      expect(run.stderr).toMatch(/or rename one\n\nrunning mission skills /);
      expect(run.stderr).toMatch(/^warning: \$web-scraping is ambiguous: it could mean skill "web_scraping" or "web-scraping"/m);
      const first = requestsOf(server, workerOf('work'))[0]!;
      expect(first.canonical.system).not.toContain('is loaded');
      expect(storedEvents(dir, 'skill.loaded')).toEqual([]);

      const linked = writeProject({
        'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD,
        'mission.hcl': hcl(undefined, { objective: 'Scrape with [$web_scraping](skill://web_scraping).', extraSkills, taskSkills }),
      });
      const linkedPlan = await runCli(['plan', linked, '--json', '--show-prompt'], { cwd: linked });
      expect(linkedPlan.code, linkedPlan.stderr).toBe(0);
      const linkedWorker = JSON.parse(linkedPlan.stdout).tasks[0].agents[0];
      expect(linkedWorker.warnings).toEqual([]);
      expect(linkedWorker.system_prompt).toContain('HCL-SCRAPING-INSTRUCTIONS');
      expect(linkedWorker.system_prompt).not.toContain('Strip every <script> tag');
    } finally {
      await server.close();
    }
  });

  it('trims the catalog to its budget and names the skills it left out', async () => {
    const many = Array.from({ length: 40 }, (_, i) => {
      const n = String(i).padStart(2, '0');
      return `skill "s${n}" {\n  description  = "${`Skill number ${n} does one very specific kind of work in great detail. `.repeat(2)}"\n  instructions = "x"\n}\n`;
    }).join('');
    const list = Array.from({ length: 40 }, (_, i) => `skills.s${String(i).padStart(2, '0')}`).join(', ');
    const dir = writeProject({
      'skills/web-scraping/SKILL.md': WEB_SCRAPING_MD,
      'mission.hcl': hcl(undefined, { objective: 'Work.', extraSkills: many, taskSkills: `[${list}]` }),
    });
    const plan = await runCli(['plan', dir, '--json', '--show-prompt'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    const prompt: string = JSON.parse(plan.stdout).tasks[0].agents[0].system_prompt;
    const note = /Showing (\d+) of 40 skills to keep this prompt short\. Not listed here, but loadable by name: ([^\n]+)\./.exec(prompt);
    expect(note).not.toBeNull();
    const shown = Number(note![1]);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(40);
    const omitted = note![2]!.split(', ');
    expect(omitted).toEqual(Array.from({ length: 40 - shown }, (_, i) => `s${String(shown + i).padStart(2, '0')}`));
    for (let i = 0; i < shown; i++) expect(prompt).toContain(`- \`s${String(i).padStart(2, '0')}\`:`);
    expect(prompt).not.toContain(`- \`s${String(shown).padStart(2, '0')}\`:`);
  });
});
