// Re-records examples/quickstart/cassette.jsonl: runs the quickstart against the fake model server
// (scripted by quickstartScript.ts) with `--record`. Run it after a deliberate prompt change and review
// the cassette diff like code:
//
//   npx tsc -p tsconfig.json && node dist/test/support/recordQuickstart.js

import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetPath } from '../../config/assets.js';
import { startFakeModelServer } from './fakeModelServer.js';
import { quickstartScript } from './quickstartScript.js';

const example = assetPath('examples', 'quickstart');
const script = quickstartScript();
const server = await startFakeModelServer({ respond: script.respond });
try {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-record-'));
  const hcl = readFileSync(join(example, 'mission.hcl'), 'utf8').replace(
    /model "offline" \{[^}]*\}/,
    `model "offline" {\n  provider = "anthropic"\n  base_url = "${server.anthropicBaseURL}"\n  api_key  = "recording-key-not-secret"\n}`,
  );
  writeFileSync(join(dir, 'mission.hcl'), hcl);
  const cassette = join(dir, 'cassette.jsonl');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [assetPath('dist', 'cli', 'main.js'), 'run', dir, '--record', cassette], { cwd: dir, stdio: 'inherit' });
    child.on('close', resolve);
  });
  if (code !== 0 || script.problems.length > 0) {
    process.stderr.write(`recording failed (exit ${code}): ${script.problems.join('; ')}\n`);
    process.exitCode = 1;
  } else {
    copyFileSync(cassette, join(example, 'cassette.jsonl'));
    process.stdout.write(`recorded ${readFileSync(cassette, 'utf8').trim().split('\n').length} model turns into examples/quickstart/cassette.jsonl\n`);
  }
} finally {
  await server.close();
}
