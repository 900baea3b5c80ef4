// Shared pieces of the end-to-end tests that run the CLI against the fake model server: a project
// written to a temp dir, the `model "fake"` block pointing at the server, read-only access to the
// run's SQLite database, and readers for what the fake server recorded (per agent, per turn).

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { ToolResultPart } from '../../runtime/providers/types.js';
import { runCli, tempDir, type CliResult } from './cli.js';
import type { ChildProcess } from 'node:child_process';
import type { FakeModelServer, FakeRequest } from './fakeModelServer.js';

/** The model every test mission uses: `models.fake.<key>` on the fake server. */
export const ANTHROPIC_MODEL = 'models.fake.claude_sonnet_4_6';
/**
 * The top-level line a test config needs for its HTTP tools to reach the test's server on
 * 127.0.0.1: loopback is refused by default (see squadron docs security), as for any project.
 */
export const LOCAL_HTTP = 'allowed_hosts = ["127.0.0.1"]\n';
export const OPENAI_MODEL = 'models.fake.gpt_4_1';
export const GEMINI_MODEL = 'models.fake.gemini_3_8_flash';

const written: string[] = [];

/** Writes `files` (relative path → text) into a fresh temp directory and returns it. */
export function writeProject(files: Record<string, string>): string {
  const dir = tempDir('squadron-e2e-');
  written.push(dir);
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

/** Removes every directory writeProject made in this test file (call from afterAll). */
export function removeProjects(): void {
  for (const dir of written.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** `model "fake"` for commands that call no model (plan, tools, validate): no server behind it. */
export const OFFLINE_MODEL_BLOCK = 'model "fake" {\n  provider = "anthropic"\n  api_key  = "k"\n}\n';

/** `model "fake"` speaking the given wire format to the fake server. */
export function fakeModelBlock(server: FakeModelServer, provider: 'anthropic' | 'openai' | 'gemini' = 'anthropic'): string {
  const baseUrl = provider === 'anthropic' ? server.anthropicBaseURL : provider === 'gemini' ? server.url : server.openaiBaseURL;
  return `model "fake" {\n  provider = "${provider}"\n  base_url = "${baseUrl}"\n  api_key  = "test-key-123"\n}\n`;
}

/** The run database a project's `squadron run` wrote (default location), opened read-only. */
export function openRunDb(dir: string): Database.Database {
  return new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
}

/** Every row `sql` selects from the project's database (opened read-only, closed after). */
export function dbRows<T>(dir: string, sql: string): T[] {
  const db = openRunDb(dir);
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** Reads until `done` holds (every 100 ms, for at most 120 s), then the value; a timeout names `what`. */
export async function readUntil<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `squadron run` of the project, which the test's fake model kills mid-way through `onSpawn`'s
 * child, then `squadron resume` of the run it left: both results.
 */
export async function runThenResume(dir: string, onSpawn: (child: ChildProcess) => void): Promise<{ first: CliResult; resumed: CliResult }> {
  const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000, onSpawn });
  const db = openRunDb(dir);
  const runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
  db.close();
  const resumed = await runCli(['resume', runId, '--db', dir], { cwd: dir, timeoutMs: 120_000 });
  return { first, resumed };
}

/** Stored events of one type, their JSON data parsed, in order. */
export function storedEvents<T = Record<string, unknown>>(dir: string, type: string): T[] {
  const db = openRunDb(dir);
  try {
    const rows = db.prepare('SELECT data_json FROM events WHERE type = ? ORDER BY id').all(type) as { data_json: string }[];
    return rows.map((r) => JSON.parse(r.data_json) as T);
  } finally {
    db.close();
  }
}

/** Requests whose system prompt contains `match` (e.g. 'worker agent of task "gather"'), in arrival order. */
export function requestsOf(server: FakeModelServer, match: string): FakeRequest[] {
  return server.requests.filter((r) => r.canonical.system.includes(match));
}

export const commanderOf = (task: string): string => `commander of task "${task}"`;
export const workerOf = (task: string): string => `worker agent of task "${task}"`;
export const agentOf = (name: string): string => `You are "${name}", an agent`;

/** Names of the tools a request offered the model, in the order sent. */
export function toolNames(request: FakeRequest | undefined): string[] {
  return (request?.canonical.tools ?? []).map((t) => t.name);
}

/** The tool results of the request's newest user message (what the model just received). */
export function latestToolResults(request: FakeRequest): ToolResultPart[] {
  const messages = request.canonical.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const results = messages[i]!.parts.filter((p): p is ToolResultPart => p.type === 'tool_result');
    if (results.length > 0) return results;
  }
  return [];
}

/** Text of a tool result's text parts. */
export function resultText(part: ToolResultPart | undefined): string {
  return (part?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
}
