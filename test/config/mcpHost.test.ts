// Go's mcp_host block is accepted, checked as Go checks it, and noted (its settings are not used);
// a mission's `expose = false` keeps it from other agents.

import { afterAll, describe, expect, test } from 'vitest';
import { at, codes, loadHcl, only, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const TASK = '  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n';

describe('mcp_host (Go)', () => {
  test('is accepted with a GO014 note that says where the MCP server is', () => {
    const src = withMission(TASK) + 'mcp_host {\n  enabled = true\n  port    = 9000\n  secret  = "s3cret"\n}\n';
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`w:GO014@${at(src, 'mcp_host')}`]);
    expect(only(r, 'GO014').hint).toContain('squadron mcp serve');
    expect(r.graph).toBeDefined();
  });

  test('a port outside 1024–65535 is GO015 at its value; an unknown attribute is SCH001', () => {
    const src = withMission(TASK) + 'mcp_host {\n  port = 80\n  enabeld = true\n}\n';
    const r = loadHcl(src);
    expect(codes(r)).toEqual(expect.arrayContaining([`GO015@${at(src, '80')}`, `SCH001@${at(src, 'enabeld')}`]));
    expect(only(r, 'GO015').message).toBe('mcp_host port must be between 1024 and 65535, got 80');
    expect(r.graph).toBeUndefined();
  });
});

describe('mission expose', () => {
  test('expose = false is kept on the mission; the default leaves it out', () => {
    const hidden = loadHcl(withMission(TASK).replace(/mission "(\w+)" \{\n/, 'mission "$1" {\n  expose = false\n'));
    expect(codes(hidden)).toEqual([]);
    expect(hidden.graph!.missions[0]!.expose).toBe(false);
    expect(loadHcl(withMission(TASK)).graph!.missions[0]!.expose).toBeUndefined();
  });
});
