// A config of several megabytes validates within a small, fixed heap. Reading a large config once
// held its whole syntax tree (about 28 bytes per byte of source) and lists with room for 17
// entries: a 4 MB config needed between 96 and 160 MB of heap. Now a top-level block's tree lives
// only while its stage reads it, and the same 4 MB validates in 48 MB (not in 32). The bound sits
// between the two, so the test does not depend on the machine's load: memory, not time, decides.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CLI } from '../support/cli.js';

/** The heap (MB) validate gets. */
const HEAP_MB = 80;
const CONFIG_MB = 4;

/** Many blocks in one file: per index a custom tool, a toolset and an agent, then missions of 200 chained tasks. */
function hugeConfig(bytes: number): string {
  const out = ['variable "api_key" {\n  secret = true\n}\nmodel "claude" {\n  provider = "anthropic"\n  api_key  = vars.api_key\n}\n'];
  let size = out[0]!.length;
  let n = 0;
  for (; size < bytes / 2; n++) {
    const text = `tool "lookup_${n}" {
  implements  = builtins.http.get
  description = "Lookup service ${n}"
  inputs = {
    query = string("What to look up", true)
  }
  url = "https://svc${n}.example.com/search?q=\${inputs.query}"
}
toolset "ts_${n}" {
  description = "Toolset ${n}"
  tools       = [builtins.http.get, tools.lookup_${n}]
}
agent "agent_${n}" {
  model       = models.claude.claude_sonnet_5_5
  personality = "Specialist number ${n}. Careful and concise."
  tools       = [toolsets.ts_${n}]
}
`;
    out.push(text);
    size += text.length;
  }
  for (let m = 0; size < bytes; m++) {
    const parts = [`mission "mission_${m}" {\n  commander {\n    model = models.claude.claude_sonnet_5_5\n  }\n  agents = [agents.agent_${m % n}]\n`];
    for (let t = 0; t < 200; t++) {
      parts.push(`  task "t_${t}" {\n    objective  = "Step ${t} of mission ${m}."\n    tools      = [toolsets.ts_${(t + m) % n}]\n${t > 0 ? `    depends_on = [tasks.t_${t - 1}]\n` : ''}  }\n`);
    }
    parts.push('}\n');
    const text = parts.join('');
    out.push(text);
    size += text.length;
  }
  return out.join('');
}

const dir = mkdtempSync(join(tmpdir(), 'squadron-huge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function validateWithHeap(path: string, heapMb: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, CLI, 'validate', path, '--offline'], {
      env: { ...process.env, NO_COLOR: '1', SQUADRON_VAR_api_key: 'test-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test(`a ${CONFIG_MB} MB config validates within a ${HEAP_MB} MB heap`, async () => {
  const text = hugeConfig(CONFIG_MB * 1024 * 1024);
  const file = join(dir, 'main.hcl');
  writeFileSync(file, text);
  const missions = (text.match(/^mission "/gm) ?? []).length;
  const r = await validateWithHeap(file, HEAP_MB);
  expect(r.stderr).not.toMatch(/heap out of memory|Allocation failed/);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/config is valid\n$/);
  // Every mission and task made it into the summary.
  expect((r.stdout.match(/^mission mission_\d+: commander claude\.claude_sonnet_5_5, 200 tasks/gm) ?? []).length).toBe(missions);
}, 300_000);
