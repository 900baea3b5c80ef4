import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageText } from '../../config/diagnostics.js';
import type { Skill } from '../../config/graph.js';
import type { Diagnostic, Range } from '../../config/hcl/diagnostic.js';
import { duplicateSkillDiagnostics, loadSkillFolders, parseSkillFile, skillNameKey } from '../../config/skillFolders.js';

const declaredAt: Range = {
  file: '/project/main.hcl',
  start: { line: 3, column: 3, offset: 40 },
  end: { line: 3, column: 30, offset: 67 },
};

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'squadron-skills-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function writeSkill(dir: string, folder: string, content: string): string {
  mkdirSync(join(dir, folder), { recursive: true });
  const file = join(dir, folder, 'SKILL.md');
  writeFileSync(file, content);
  return file;
}

function skillMd(frontmatter: string, body = '# Instructions\n\nDo the thing.\n'): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

function load(...paths: string[]) {
  return loadSkillFolders(paths.map((path) => ({ path, declaredAt })));
}

/** Parses one SKILL.md text and returns its only diagnostic (failing if there is not exactly one). */
function onlyDiagnostic(text: string, folder = 'my-skill'): Diagnostic {
  const { skill, diagnostics } = parseSkillFile(text, '/s/my-skill/SKILL.md', folder);
  expect(skill).toBeUndefined();
  expect(diagnostics).toHaveLength(1);
  return diagnostics[0] as Diagnostic;
}

describe('loadSkillFolders: valid skills', () => {
  it('loads every field of a valid SKILL.md with its folder origin', () => {
    const file = writeSkill(
      root,
      'web-scraping',
      skillMd(
        [
          'name: web-scraping',
          'description: |',
          '  Fetch pages and extract data.',
          '  USE WHEN: a page must be read.',
          'license: Apache-2.0',
          'compatibility: Needs network access.',
          'metadata:',
          '  author: someone',
          '  version: "1.0"',
          'allowed-tools: Bash(curl:*) Read',
        ].join('\n'),
        '\n# Scraping\n\nUse the HTTP tool.\n\n',
      ),
    );
    const { skills, diagnostics } = load(root);
    expect(diagnostics).toEqual([]);
    expect(skills).toEqual([
      {
        name: 'web-scraping',
        description: 'Fetch pages and extract data.\nUSE WHEN: a page must be read.',
        instructions: '# Scraping\n\nUse the HTTP tool.',
        tools: [],
        origin: { kind: 'folder', file, line: 1 },
        license: 'Apache-2.0',
        compatibility: 'Needs network access.',
        metadata: { author: 'someone', version: '1.0' },
        allowedTools: ['Bash(curl:*)', 'Read'],
      },
    ]);
  });

  it('accepts allowed-tools written as a YAML list, and grants no tools from it', () => {
    writeSkill(root, 'a', skillMd('name: a\ndescription: d\nallowed-tools:\n  - Read\n  - Write'));
    const { skills, diagnostics } = load(root);
    expect(diagnostics).toEqual([]);
    expect(skills[0]?.allowedTools).toEqual(['Read', 'Write']);
    expect(skills[0]?.tools).toEqual([]);
  });

  it('returns skills sorted by name across several skills_dirs', () => {
    const second = join(root, 'second');
    const first = join(root, 'first');
    writeSkill(first, 'zeta', skillMd('name: zeta\ndescription: z'));
    writeSkill(first, 'beta', skillMd('name: beta\ndescription: b'));
    writeSkill(second, 'alpha', skillMd('name: alpha\ndescription: a'));
    const { skills, diagnostics } = load(first, second);
    expect(diagnostics).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(['alpha', 'beta', 'zeta']);
  });

  it('handles CRLF line endings and a byte-order mark', () => {
    writeSkill(root, 'crlf', '\uFEFF---\r\nname: crlf\r\ndescription: windows file\r\n---\r\nBody line.\r\n');
    const { skills, diagnostics } = load(root);
    expect(diagnostics).toEqual([]);
    expect(skills[0]).toMatchObject({ name: 'crlf', description: 'windows file', instructions: 'Body line.' });
  });

  it('ignores hidden folders and loose files in skills_dir', () => {
    writeSkill(root, '.git', 'not a skill');
    writeFileSync(join(root, 'README.md'), '# readme');
    writeSkill(root, 'ok', skillMd('name: ok\ndescription: fine'));
    const { skills, diagnostics } = load(root);
    expect(diagnostics).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(['ok']);
  });
});

describe('loadSkillFolders: directory problems', () => {
  it('reports a missing skills_dir at the attribute that declared it', () => {
    const { skills, diagnostics } = load(join(root, 'nope'));
    expect(skills).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'SKL001', file: '/project/main.hcl', line: 3, column: 3 }),
    ]);
    expect(diagnostics[0]?.message).toContain('does not exist');
  });

  it('reports a skills_dir that is a file', () => {
    const file = join(root, 'file.txt');
    writeFileSync(file, 'x');
    const { diagnostics } = load(file);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([['SKL001', 3]]);
    expect(diagnostics[0]?.message).toContain('not a directory');
  });

  it('warns about a sub-folder without SKILL.md, hinting at a wrongly cased file', () => {
    mkdirSync(join(root, 'empty'));
    mkdirSync(join(root, 'lower'));
    writeFileSync(join(root, 'lower', 'skill.md'), skillMd('name: lower\ndescription: d'));
    const { skills, diagnostics } = load(root);
    expect(skills).toEqual([]);
    expect(diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([
      ['warning', 'SKL002', 3],
      ['warning', 'SKL002', 3],
    ]);
    expect(diagnostics[0]?.message).toContain('"empty"');
    expect(diagnostics[0]?.hint).toBeUndefined();
    expect(diagnostics[1]?.hint).toContain('rename "skill.md" to "SKILL.md"');
  });
});

describe('loadSkillFolders: one broken skill', () => {
  it('reports the broken skill with its file and line and still loads the others', () => {
    writeSkill(root, 'good-one', skillMd('name: good-one\ndescription: fine'));
    const broken = writeSkill(root, 'broken', skillMd('name: broken\ndescription: fine\nversion: 2'));
    writeSkill(root, 'good-two', skillMd('name: good-two\ndescription: fine'));
    const { skills, diagnostics } = load(root);
    expect(skills.map((s) => s.name)).toEqual(['good-one', 'good-two']);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'SKL014', file: broken, line: 4, column: 1 })]);
  });

  it('reports every problem of a broken skill, not only the first', () => {
    const { diagnostics } = parseSkillFile(skillMd('name: Bad_Name\ncolour: red'), '/s/x/SKILL.md', 'x');
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['SKL014', 3],
      ['SKL021', 2],
      ['SKL024', 1],
    ]);
  });
});

describe('parseSkillFile: frontmatter errors and their lines', () => {
  it('SKL010: no frontmatter points at line 1', () => {
    const d = onlyDiagnostic('# Just markdown\n\nname: x\n');
    expect([d.code, d.line, d.column]).toEqual(['SKL010', 1, 1]);
    expect(d.file).toBe('/s/my-skill/SKILL.md');
  });

  it('SKL011: frontmatter never closed points at line 1', () => {
    const d = onlyDiagnostic('---\nname: my-skill\ndescription: d\n# body\n');
    expect([d.code, d.line]).toEqual(['SKL011', 1]);
  });

  it('SKL012: a YAML syntax error points at its line', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\ndescription: d: e'));
    expect([d.code, d.line, d.column]).toEqual(['SKL012', 3, 14]);
    expect(d.message).toContain('invalid YAML');
  });

  it('SKL012: an unclosed quote points where the value began, not at the closing ---', () => {
    const d = onlyDiagnostic('---\nname: my-skill\ndescription: "unclosed\nlicense: MIT\n---\nbody\n');
    expect([d.code, d.line, d.column]).toEqual(['SKL012', 3, 14]);
    expect(d.message).toContain('closing');
  });

  it('SKL012: a repeated key is a YAML error at the repeated key', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\ndescription: a\ndescription: b'));
    expect([d.code, d.line]).toEqual(['SKL012', 4]);
  });

  it('SKL013: frontmatter that is a list, not a mapping', () => {
    const d = onlyDiagnostic(skillMd('- name\n- description'));
    expect([d.code, d.line]).toEqual(['SKL013', 2]);
  });

  it('SKL014: an unknown key is reported at its line with "did you mean"', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\ndescription: d\nallowed_tools: Read'));
    expect([d.code, d.line, d.column]).toEqual(['SKL014', 4, 1]);
    expect(d.message).toContain('"allowed_tools"');
    expect(d.hint).toContain('did you mean "allowed-tools"');
  });

  it('SKL014: an unknown key far from any known one points to metadata', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\ndescription: d\nauthor: me'));
    expect(d.hint).toContain('metadata');
    expect(d.hint).not.toContain('did you mean');
  });

  it('SKL014: a `tools` key explains that folder skills cannot grant tools', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\ndescription: d\ntools: [x]'));
    expect(d.hint).toContain('HCL `skill` block');
  });

  it('SKL015: a name that is not a string', () => {
    const d = onlyDiagnostic(skillMd('name: [a, b]\ndescription: d'));
    expect([d.code, d.line, d.column]).toEqual(['SKL015', 2, 7]);
  });

  it('SKL020: a missing name points at line 1', () => {
    const d = onlyDiagnostic(skillMd('description: d'));
    expect([d.code, d.line]).toEqual(['SKL020', 1]);
    expect(d.hint).toContain('name: my-skill');
  });

  it.each([
    ['Web-Scraping', 'uppercase'],
    ['web scraping', 'character " "'],
    ['web_scraping', 'character "_"'],
    ['-web', 'start or end with a hyphen'],
    ['web-', 'start or end with a hyphen'],
    ['web--scraping', 'two hyphens in a row'],
    ['"café"', 'character "é"'],
  ])('SKL021: name %s is rejected (%s)', (name, reason) => {
    const d = onlyDiagnostic(skillMd(`name: ${name}\ndescription: d`));
    expect([d.code, d.line]).toEqual(['SKL021', 2]);
    expect(d.message).toContain(reason);
  });

  it('SKL022: a name longer than 64 characters', () => {
    const long = 'a'.repeat(65);
    const d = onlyDiagnostic(skillMd(`name: ${long}\ndescription: d`), long);
    expect([d.code, d.line]).toEqual(['SKL022', 2]);
    expect(parseSkillFile(skillMd(`name: ${'a'.repeat(64)}\ndescription: d`), '/f', 'a'.repeat(64)).diagnostics).toEqual([]);
  });

  it('SKL023: a name different from its folder', () => {
    const d = onlyDiagnostic(skillMd('name: other-name\ndescription: d'));
    expect([d.code, d.line, d.column]).toEqual(['SKL023', 2, 7]);
    expect(d.message).toContain('"my-skill"');
  });

  it('SKL024: a missing description points at line 1', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill'));
    expect([d.code, d.line]).toEqual(['SKL024', 1]);
  });

  it('SKL024: an empty description points at its line', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\nlicense: MIT\ndescription: "   "'));
    expect([d.code, d.line]).toEqual(['SKL024', 4]);
  });

  it('SKL025: a description over 1024 characters', () => {
    const d = onlyDiagnostic(skillMd(`name: my-skill\ndescription: ${'x'.repeat(1025)}`));
    expect([d.code, d.line]).toEqual(['SKL025', 3]);
    expect(parseSkillFile(skillMd(`name: my-skill\ndescription: ${'x'.repeat(1024)}`), '/f', 'my-skill').diagnostics).toEqual([]);
  });

  it('SKL026: compatibility over 500 characters', () => {
    const d = onlyDiagnostic(skillMd(`name: my-skill\ndescription: d\ncompatibility: ${'c'.repeat(501)}`));
    expect([d.code, d.line]).toEqual(['SKL026', 4]);
  });

  it('SKL027: a metadata value that is not a string points at its nested key', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\ndescription: d\nmetadata:\n  author: me\n  version: 1.0'));
    expect([d.code, d.line, d.column]).toEqual(['SKL027', 6, 3]);
    expect(d.hint).toContain('quote');
  });

  it('SKL027: metadata that is not a map', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\ndescription: d\nmetadata: plain'));
    expect([d.code, d.line]).toEqual(['SKL027', 4]);
  });

  it('SKL028: allowed-tools that is neither a string nor a list of strings', () => {
    const d = onlyDiagnostic(skillMd('name: my-skill\ndescription: d\nallowed-tools:\n  read: true'));
    expect([d.code, d.line]).toEqual(['SKL028', 5]);
  });

  it('SKL029: no instructions after the frontmatter', () => {
    const d = onlyDiagnostic('---\nname: my-skill\ndescription: d\n---\n\n  \n');
    expect([d.code, d.line]).toEqual(['SKL029', 5]);
  });
});

describe('duplicate skill names', () => {
  it('SKL040: the same name in two skills_dirs is an error naming both files; the first is kept', () => {
    const a = join(root, 'a');
    const b = join(root, 'b');
    const first = writeSkill(a, 'deploy', skillMd('name: deploy\ndescription: from a'));
    const second = writeSkill(b, 'deploy', skillMd('name: deploy\ndescription: from b'));
    const { skills, diagnostics } = load(a, b);
    expect(skills.map((s) => s.description)).toEqual(['from a']);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'SKL040', file: second, line: 1 })]);
    expect(diagnostics[0]?.related).toEqual({ label: 'first defined at', file: first, line: 1, column: 1 });
  });

  it('SKL040: an HCL skill and a folder skill of the same name, and every further copy', () => {
    const hcl = skill('deploy', { kind: 'hcl', file: '/p/main.hcl', line: 12 });
    const folder = skill('deploy', { kind: 'folder', file: '/p/skills/deploy/SKILL.md', line: 1 });
    const third = skill('deploy', { kind: 'hcl', file: '/p/other.hcl', line: 4 });
    const diagnostics = duplicateSkillDiagnostics([hcl, skill('other', hcl.origin), folder, third]);
    expect(diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['SKL040', '/p/skills/deploy/SKILL.md', 1],
      ['SKL040', '/p/other.hcl', 4],
    ]);
    for (const d of diagnostics) expect(messageText(d, '/p')).toBe('skill "deploy" is defined twice (first defined at main.hcl:12:1)');
  });

  it('SKL041: names differing only by case or -/_ are a warning, not an error', () => {
    const diagnostics = duplicateSkillDiagnostics([
      skill('web_scraping', { kind: 'hcl', file: '/p/main.hcl', line: 2 }),
      skill('web-scraping', { kind: 'folder', file: '/p/s/web-scraping/SKILL.md', line: 1 }),
      skill('unrelated', { kind: 'hcl', file: '/p/main.hcl', line: 9 }),
    ]);
    expect(diagnostics.map((d) => [d.severity, d.code, d.file])).toEqual([
      ['warning', 'SKL041', '/p/s/web-scraping/SKILL.md'],
    ]);
    expect(diagnostics[0]?.hint).toContain('[$web-scraping](skill://web-scraping)');
    expect(messageText(diagnostics[0]!, '/p')).toBe('skill "web-scraping" differs from skill "web_scraping" only by case or -/_ (skill "web_scraping" at main.hcl:2:1)');
  });

  it('skillNameKey folds case and reads _ as -', () => {
    expect(skillNameKey('Web_Scraping')).toBe('web-scraping');
    expect(skillNameKey('web-scraping')).toBe('web-scraping');
    expect(skillNameKey('webscraping')).not.toBe(skillNameKey('web-scraping'));
  });
});

function skill(name: string, origin: Skill['origin']): Skill {
  return { name, description: 'd', instructions: 'i', tools: [], origin };
}
