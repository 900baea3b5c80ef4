// The Node version floor: cli/nodeVersion.ts decides, and the `squadron` process (dist/cli/main.cjs)
// refuses an older Node with one line before loading anything else; scripts/check-node.cjs does the
// same at install. An older Node is played by a preload that rewrites process.versions.node.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_NODE, nodeTooOld } from '../../cli/nodeVersion.js';
import { CLI, REPO_ROOT } from '../support/cli.js';

const asNode = (version: string) => `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`;

describe('the Node version floor', () => {
  it.each(['22.15.0', '22.23.5', '24.0.0', '26.12.1', '27.0.0'])('lets Node %s run', (v) => {
    expect(nodeTooOld(v)).toBeUndefined();
  });

  it.each(['20.19.5', '22.14.0', '18.20.8'])('refuses Node %s in one line naming the floor', (v) => {
    expect(nodeTooOld(v)).toBe(
      `squadron: needs Node.js ${MIN_NODE} or later (22.x, 24.x or 26.x); this is Node.js ${v}. See "Requirements" in the README.`,
    );
  });

  it('stops the CLI on an older Node with that line and status 1, before any command runs', () => {
    const r = spawnSync(process.execPath, ['--import', asNode('20.19.5'), CLI, 'validate', 'examples/quickstart'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 1, stdout: '', stderr: `${nodeTooOld('20.19.5')}\n` });
  });

  it('runs the CLI on the floor itself', () => {
    const r = spawnSync(process.execPath, ['--import', asNode(MIN_NODE), CLI, '--version'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('stops an install on an older Node (the preinstall script) with one line and status 1', () => {
    const script = join(REPO_ROOT, 'scripts', 'check-node.cjs');
    const old = spawnSync(process.execPath, ['--import', asNode('20.19.5'), script], { encoding: 'utf8', env: { ...process.env, SQUADRON_SKIP_NODE_CHECK: '' } });
    expect(old.status).toBe(1);
    expect(old.stderr.trim().split('\n')).toHaveLength(1);
    expect(old.stderr).toContain(`needs Node.js ${MIN_NODE} or later`);
    expect(old.stderr).toContain('this is Node.js 20.19.5');
    const current = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect({ code: current.status, stderr: current.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
