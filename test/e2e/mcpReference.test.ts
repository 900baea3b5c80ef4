// End-to-end: the official MCP reference servers (`@modelcontextprotocol/server-filesystem` and
// `server-everything`, devDependencies, run over stdio by the CLI) in a real run. The filesystem
// server started without a folder works in the roots Squadron gives it (the run's workspace, or the
// block's `roots`); a media file reaches the model once; a text blob is shown as text; content for
// the user alone is not sent to the model; task-only tools are left out; progress keeps a long call
// alive past its timeout and shows in the output, and a call without progress fails at its timeout.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, latestToolResults, removeProjects, requestsOf, resultText, storedEvents, toolNames, workerOf, writeProject, LOCAL_HTTP } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

const FILESYSTEM = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const EVERYTHING = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A 3 KB "PNG": the filesystem server picks the media type by extension and sends the bytes as they are. */
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(3000, 7)]);
const PNG_BASE64 = PNG.toString('base64');

function server(name: string, script: string, extra = ''): string {
  return `mcp "${name}" {\n  command = "${process.execPath}"\n  args    = ["${script}"]\n${extra}}\n`;
}

/** A worker task driven by the commander in one step. */
function task(name: string, tools: string): string {
  return `  task "${name}" {\n    objective = "Use the ${name} tools."\n    tools     = ${tools}\n    discovery = false\n  }\n`;
}

function countOf(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

const bodyBytes = (request: FakeRequest): number => Buffer.byteLength(JSON.stringify(request.body));

describe('the MCP reference servers in a run', () => {
  let model: FakeModelServer;
  let dir: string;
  let workspace: string;
  let code: number | null;
  let stderr: string;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = writeProject({ 'data/facts.txt': 'the data root\n', 'secret.txt': 'outside every root\n' });
    workspace = join(dir, 'ws');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'notes.txt'), 'in the workspace\n');
    writeFileSync(join(workspace, 'pixel.png'), PNG);
    // The server compares real paths (a temp dir may sit behind a symbolic link).
    const ws = realpathSync(workspace);
    const turns = turnScript({
      ...Object.fromEntries(
        ['files', 'data', 'everything', 'stuck', 'reading'].map((t) => [`commander of task "${t}"`, [callAgent('worker', `Do the ${t} part.`), (req: FakeRequest) => taskComplete(lastToolResult(req))]]),
      ),
      'worker agent of task "files"': [
        toolCall('mcp_fs_list_allowed_directories', {}),
        toolCall('mcp_fs_read_text_file', { path: join(ws, 'notes.txt') }),
        toolCall('mcp_fs_read_text_file', { path: join(realpathSync(dir), 'secret.txt') }),
        toolCall('mcp_fs_read_media_file', { path: join(ws, 'pixel.png') }),
        { text: 'Files done.' },
      ],
      // server-filesystem applies the roots it asked for after the handshake, asynchronously: a call in
      // its first moments can find none. So this worker lists the allowed folders until the data root
      // is there (as a careful model would), then reads.
      'worker agent of task "data"': Array.from({ length: 40 }, () => (req: FakeRequest) => {
        const last = lastToolResult(req);
        if (last === 'the data root\n') return { text: 'Data done.' };
        if (last.includes(realpathSync(join(dir, 'data')))) return toolCall('mcp_fsdata_read_text_file', { path: join(realpathSync(dir), 'data', 'facts.txt') });
        return { ...toolCall('mcp_fsdata_list_allowed_directories', {}), delayMs: 250 };
      }),
      'worker agent of task "everything"': [
        toolCall('mcp_every_toggle-simulated-logging', {}),
        toolCall('mcp_every_get-resource-reference', { resourceType: 'Blob', resourceId: 3 }),
        toolCall('mcp_every_get-annotated-message', { messageType: 'success' }),
        toolCall('mcp_every_trigger-long-running-operation', { duration: 3, steps: 15 }),
        { text: 'Everything done.' },
      ],
      'worker agent of task "reading"': [
        toolCall('mcp_every_resources', { action: 'list' }),
        toolCall('mcp_every_resources', { action: 'read', uri: 'demo://resource/static/document/features.md' }),
        toolCall('mcp_every_resources', { action: 'read', template: 'demo://resource/dynamic/text/{resourceId}', arguments: { resourceId: '7' } }),
        toolCall('mcp_every_resources', { action: 'read', template: 'demo://resource/dynamic/text/{resourceId}', arguments: {} }),
        { text: 'Reading done.' },
      ],
      'worker agent of task "stuck"': [toolCall('mcp_impatient_trigger-long-running-operation', { duration: 30, steps: 1 }), { text: 'Stuck done.' }],
    });
    model = await startFakeModelServer({ respond: turns.respond });
    writeFileSync(
      join(dir, 'mission.hcl'),
      `${fakeModelBlock(model)}
${server('fs', FILESYSTEM)}
${server('fsdata', FILESYSTEM, '  roots   = ["data"]\n')}
${server('every', EVERYTHING, '  timeout = "2s"\n')}
${server('impatient', EVERYTHING, '  timeout = "1s"\n')}
mission "reference" {
  # One task at a time: four servers starting at once on a busy machine could miss the handshake bound.
  max_parallel = 1
  commander { model = ${ANTHROPIC_MODEL} }
${task('files', '[mcp.fs.all]')}
${task('data', '[mcp.fsdata.read_text_file, mcp.fsdata.list_allowed_directories]')}
${task('everything', '[mcp.every.all]')}
${task('stuck', '[mcp.impatient["trigger-long-running-operation"]]')}
${task('reading', '[mcp.every.resources]')}
}
`,
    );
    const run = await runCli(['run', dir, '--workspace', workspace], { cwd: dir, timeoutMs: 240_000 });
    problems.push(...turns.problems);
    code = run.code;
    stderr = run.stderr;
  }, 300_000);

  afterAll(async () => {
    await model.close();
  });

  const worker = (t: string) => requestsOf(model, workerOf(t));
  const result = (t: string, turn: number) => latestToolResults(worker(t)[turn]!)[0]!;

  it('completes the run with every scripted turn used', () => {
    expect(problems).toEqual([]);
    expect(code, stderr).toBe(0);
  });

  it('gives a filesystem server started without a folder the run workspace as its root', () => {
    const allowed = result('files', 1);
    expect(allowed.isError, resultText(allowed)).toBe(false);
    expect(resultText(allowed)).toContain(realpathSync(workspace));
    expect(resultText(result('files', 2))).toBe('in the workspace\n');
    const outside = result('files', 3);
    expect(outside.isError).toBe(true);
    expect(resultText(outside)).toMatch(/access denied/i);
    expect(resultText(outside)).not.toContain('outside every root');
  });

  it('answers roots/list with the block\'s roots when it has them', () => {
    const facts = result('data', worker('data').length - 1);
    expect(facts.isError, resultText(facts)).toBe(false);
    expect(resultText(facts)).toBe('the data root\n');
  });

  it('sends a media file to the model once, not again inside the structured content', () => {
    const media = result('files', 4);
    expect(media.isError).toBe(false);
    expect(media.content.filter((p) => p.type === 'image')).toHaveLength(1);
    const next = worker('files')[4]!;
    const body = JSON.stringify(next.body);
    const growth = bodyBytes(next) - bodyBytes(worker('files')[3]!);
    console.log(`read_media_file of a ${PNG.length}-byte PNG: the next request grew by ${growth} bytes to ${bodyBytes(next)}`);
    expect(countOf(body, PNG_BASE64)).toBe(1);
    // The request grows by the image (and a little JSON around it), not by two copies of it.
    expect(growth).toBeLessThan(PNG_BASE64.length * 1.5);
  });

  it('shows a text/plain blob as its text', () => {
    const blob = result('everything', 2);
    expect(blob.isError, resultText(blob)).toBe(false);
    expect(resultText(blob)).toMatch(/Resource 3: This is a base64 blob created at/);
    expect(resultText(blob)).not.toContain('binary data');
  });

  it('keeps content addressed to the user alone from the model', () => {
    const annotated = result('everything', 3);
    expect(resultText(annotated)).not.toContain('Operation completed successfully');
    expect(resultText(annotated)).toContain('addressed to the user only');
  });

  it('writes the server\'s log messages to the run log at their level', () => {
    const logged = storedEvents<{ server: string; level: string; data: unknown }>(dir, 'mcp.log').filter((e) => e.server === 'every');
    expect(logged.length).toBeGreaterThan(0);
    // The server logs the roots it received, and a message at a random level when logging is toggled on.
    expect(logged.some((e) => /level message/.test(String(e.data))), JSON.stringify(logged)).toBe(true);
    // pino's numbers: info 30, warn 40, error 50, fatal 60; debug lines are not written.
    const pinoLevel: Record<string, number | undefined> = { info: 30, notice: 30, warning: 40, error: 50, critical: 60, alert: 60, emergency: 60 };
    const runLog = readFileSync(join(dir, '.squadron', 'logs', readdirSync(join(dir, '.squadron', 'logs'))[0]!), 'utf8');
    const lines = runLog.split('\n').filter((l) => l.includes('"mcp.log"')).map((l) => JSON.parse(l) as { level: number; msg: string; event: { data: unknown } });
    for (const event of logged) {
      const line = lines.find((l) => l.event.data === event.data);
      const context = JSON.stringify({ event, lines });
      if (pinoLevel[event.level] === undefined) expect(line, context).toBeUndefined();
      else {
        expect(line?.level, context).toBe(pinoLevel[event.level]);
        expect(line?.msg, context).toMatch(/^mcp every( \(.+\))?$/);
      }
    }
  });

  it('puts a server\'s instructions into the prompt of a worker holding its tools', () => {
    const instructions = readFileSync(join(EVERYTHING, '..', 'docs', 'instructions.md'), 'utf8').trim();
    const system = worker('everything')[0]!.canonical.system;
    expect(system).toContain(`## How the tool servers ask to be used`);
    expect(system).toContain(`### mcp.every\n${instructions}`);
    // A worker holding no tool of that server does not get its instructions.
    expect(worker('files')[0]!.canonical.system).not.toContain('Everything Server');
  });

  it('leaves out the tools that only run as MCP tasks', () => {
    const offered = toolNames(worker('everything')[0]);
    expect(offered).toContain('mcp_every_trigger-long-running-operation');
    expect(offered).not.toContain('mcp_every_simulate-research-query');
    // Resources are authorized on their own: mcp.every.all does not include them.
    expect(offered).not.toContain('mcp_every_resources');
  });

  it('lists and reads a server\'s resources through mcp.<server>.resources, by URI and by template', () => {
    expect(toolNames(worker('reading')[0])).toEqual(['mcp_every_resources']);
    const listed = resultText(result('reading', 1));
    expect(listed).toContain('<demo://resource/static/document/features.md> (text/markdown)');
    expect(listed).toMatch(/demo:\/\/resource\/dynamic\/text\/\{resourceId\} — arguments: resourceId/);
    const features = readFileSync(join(EVERYTHING, '..', 'docs', 'features.md'), 'utf8');
    expect(resultText(result('reading', 2))).toBe(`[resource demo://resource/static/document/features.md (text/markdown)]\n${features}`);
    expect(resultText(result('reading', 3))).toMatch(/^\[resource demo:\/\/resource\/dynamic\/text\/7 \(text\/plain\)\]\nResource 7: This is a plaintext resource/);
    const missing = result('reading', 4);
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toBe('the template demo://resource/dynamic/text/{resourceId} needs arguments.resourceId');
  });

  it('keeps a call that reports progress alive past its timeout, and shows the progress', () => {
    const long = result('everything', 4);
    expect(long.isError, resultText(long)).toBe(false);
    expect(resultText(long)).toContain('Long running operation completed. Duration: 3 seconds, Steps: 15.');
    // The call outlived its 2 s timeout only because progress arrived, so at least the first step
    // was seen. (The SDK drops a notification that arrives together with the result, so the last
    // steps may be missing on a busy machine.)
    expect(stderr).toContain('worker[everything] mcp.every.trigger-long-running-operation 1/15');
    const progress = storedEvents<{ tool: string; progress: number; total?: number }>(dir, 'tool.progress').filter((e) => e.tool === 'mcp.every.trigger-long-running-operation');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((e) => e.progress)).toEqual(Array.from({ length: progress.length }, (_, i) => i + 1));
    expect(progress.every((e) => e.total === 15)).toBe(true);
  });

  it('fails a call without progress at the server\'s timeout with a clear tool error', () => {
    const stuck = result('stuck', 1);
    expect(stuck.isError).toBe(true);
    expect(resultText(stuck)).toBe('the call to "trigger-long-running-operation" on MCP server "impatient" timed out: no result and no progress within 1 s');
  });
});

describe('squadron validate and plan with the reference servers', () => {
  it('warns about task-only tools behind mcp.<server>.all and rejects a missing root', async () => {
    const dir = writeProject({
      'mission.hcl': `model "fake" {\n  provider = "anthropic"\n  api_key  = "k"\n}\n${server('every', EVERYTHING)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
${task('t', '[mcp.every.all, mcp.every.resources]')}
}
`,
    });
    const valid = await runCli(['validate', dir], { cwd: dir, timeoutMs: 60_000 });
    expect(valid.code, valid.stderr).toBe(0);
    // mcp.every.resources is not one of the server's tools, yet not an unknown one either.
    expect(valid.stderr).not.toContain('MCP001');
    expect(valid.stderr).toContain(
      'warning[MCP003]: mcp server "every" offers a tool that only runs as MCP tasks (execution.taskSupport = "required"), which Squadron does not support: "simulate-research-query" is left out of mcp.every.all',
    );

    const plan = await runCli(['plan', dir], { cwd: dir, timeoutMs: 60_000 });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(
      'warning: tool mcp.every.simulate-research-query is unavailable: it only runs as an MCP task (execution.taskSupport = "required"), which Squadron does not support',
    );
    // The server's annotations, after each tool.
    expect(plan.stdout).toContain('- mcp.every.get-annotated-message  (task) · read-only, idempotent');
    expect(plan.stdout).toContain('- mcp.every.resources  (task)\n');
    const json = JSON.parse((await runCli(['plan', dir, '--json'], { cwd: dir, timeoutMs: 60_000 })).stdout);
    expect(json.tasks[0].agents[0].tool_hints['mcp.every.trigger-long-running-operation']).toEqual(['read-only', 'idempotent']);

    writeFileSync(join(dir, 'mission.hcl'), readFileSync(join(dir, 'mission.hcl'), 'utf8').replace('args    =', 'roots   = ["nope"]\n  args    ='));
    const missing = await runCli(['validate', dir, '--offline'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error\[FIL001\]: mcp root "nope" does not exist/);
  });
});

/** A port nobody listens on right now (the server is told to take it). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the everything server over Streamable HTTP', () => {
  let child: ChildProcess | undefined;

  afterAll(() => {
    child?.kill();
  });

  it('asks for the roots over HTTP and reads a resource', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    await new Promise<void>((resolve, reject) => {
      child!.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        log += chunk;
        if (log.includes('listening on port')) resolve();
      });
      child!.on('exit', (code) => reject(new Error(`the everything server exited (${code}): ${log}`)));
    });
    const dir = writeProject({});
    const workspace = join(dir, 'ws');
    mkdirSync(workspace);
    const turns = turnScript({
      'commander of task "web"': [callAgent('worker', 'Look.'), (req) => taskComplete(lastToolResult(req))],
      'worker agent of task "web"': [
        toolCall('mcp_web_get-roots-list', {}),
        toolCall('mcp_web_resources', { action: 'read', template: 'demo://resource/dynamic/text/{resourceId}', arguments: { resourceId: '2' } }),
        { text: 'Web done.' },
      ],
    });
    const model = await startFakeModelServer({ respond: turns.respond });
    try {
      writeFileSync(
        join(dir, 'mission.hcl'),
        `${fakeModelBlock(model)}\n${LOCAL_HTTP}mcp "web" {\n  url = "http://127.0.0.1:${port}/mcp"\n}\nmission "m" {\n  commander { model = ${ANTHROPIC_MODEL} }\n${task('web', '[mcp.web["get-roots-list"], mcp.web.resources]')}}\n`,
      );
      const run = await runCli(['run', dir, '--workspace', workspace], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      const requests = requestsOf(model, workerOf('web'));
      const roots = latestToolResults(requests[1]!)[0]!;
      expect(resultText(roots)).toContain(`URI: ${pathToFileURL(workspace).href}`);
      expect(resultText(latestToolResults(requests[2]!)[0]!)).toMatch(/Resource 2: This is a plaintext resource/);
    } finally {
      await model.close();
    }
  });
});
