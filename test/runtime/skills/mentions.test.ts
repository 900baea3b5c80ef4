import { describe, expect, it } from 'vitest';
import { findSkillMentions } from '../../../runtime/skills/mentions.js';
import { folderSkill, hclSkill } from './fixtures.js';

const scrapingHcl = hclSkill('web_scraping');
const scrapingFolder = folderSkill('web-scraping');
const deploy = hclSkill('deploy');
const review = folderSkill('code-review');
const home = folderSkill('home');
const all = [scrapingHcl, scrapingFolder, deploy, review, home];

const names = (text: string, skills = all): string[] => findSkillMentions(text, skills).matched.map((s) => s.name);

describe('findSkillMentions: plain $name (layer 3)', () => {
  it('matches a unique plain name', () => {
    expect(names('please use $deploy now')).toEqual(['deploy']);
  });

  it('matches regardless of case and -/_ when the folded name is unique', () => {
    expect(names('$Code_Review this diff')).toEqual(['code-review']);
  });

  it('returns skills in order of first mention, each once', () => {
    expect(names('$code-review then $deploy, then $deploy and $code-review again')).toEqual(['code-review', 'deploy']);
  });

  it('stops the name at punctuation', () => {
    expect(names('Run $deploy. Then ($code-review), "$deploy"!')).toEqual(['deploy', 'code-review']);
  });

  it('ignores $words that name no skill, silently', () => {
    expect(findSkillMentions('costs $100 or $foo', all)).toEqual({ matched: [], warnings: [] });
  });

  it('ignores an ambiguous plain name (two skills equal after folding) with a warning', () => {
    const result = findSkillMentions('use $web-scraping and $WEB_SCRAPING', all);
    expect(result.matched).toEqual([]);
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toContain('$web-scraping is ambiguous');
    expect(result.warnings[0]).toContain('"web_scraping" or "web-scraping"');
    expect(result.warnings[0]).toContain('[$web_scraping](skill://web_scraping)');
  });

  it('is ambiguous even when the spelling equals one of the names exactly', () => {
    const result = findSkillMentions('$web_scraping', all);
    expect(result.matched).toEqual([]);
    expect(result.warnings).toHaveLength(1);
  });

  it('warns once per distinct ambiguous spelling', () => {
    expect(findSkillMentions('$web-scraping $web-scraping', all).warnings).toHaveLength(1);
  });
});

describe('findSkillMentions: linked [$name](path)', () => {
  it('layer 1: matches a folder skill by its canonical SKILL.md path', () => {
    expect(names('see [$web-scraping](/project/skills/web-scraping/SKILL.md)')).toEqual(['web-scraping']);
  });

  it('layer 1: the path decides, whatever the bracketed name says', () => {
    expect(names('[$anything](/project/skills/code-review/SKILL.md)')).toEqual(['code-review']);
  });

  it('layer 1: an unnormalised path still matches', () => {
    expect(names('[$x](/project/skills/./code-review/SKILL.md)')).toEqual(['code-review']);
  });

  it('layer 2: matches skill://name exactly, which resolves an ambiguity', () => {
    const result = findSkillMentions('[$web_scraping](skill://web_scraping)', all);
    expect(result).toEqual({ matched: [scrapingHcl], warnings: [] });
  });

  it('layer 2: accepts skill://name/SKILL.md and whitespace between ] and (', () => {
    expect(names('[$web-scraping] (skill://web-scraping/SKILL.md)')).toEqual(['web-scraping']);
  });

  it('layer 2: skill:// compares names exactly (no folding)', () => {
    const result = findSkillMentions('[$deploy](skill://Deploy)', all);
    expect(result.matched).toEqual([]);
    expect(result.warnings[0]).toContain('no available skill "Deploy"');
  });

  it('warns about a SKILL.md path that is no available skill', () => {
    const result = findSkillMentions('[$deploy](/elsewhere/deploy/SKILL.md)', all);
    expect(result.matched).toEqual([]);
    expect(result.warnings).toHaveLength(1);
  });

  it('ignores links to things that are not skills, and does not read their name as a plain mention', () => {
    expect(findSkillMentions('[$deploy](https://example.com) [$deploy](mcp://srv/tool)', all)).toEqual({
      matched: [],
      warnings: [],
    });
  });

  it('reads [$name] without a link as a plain mention', () => {
    expect(names('[$deploy] and [$code-review](unclosed')).toEqual(['deploy', 'code-review']);
  });

  it('does not match a structurally matched name again, nor warn about it as a plain name', () => {
    const result = findSkillMentions('$web_scraping first, then [$web_scraping](skill://web_scraping)', all);
    expect(result).toEqual({ matched: [scrapingHcl], warnings: [] });
  });

  it('still warns about a different ambiguous spelling next to a linked mention', () => {
    const result = findSkillMentions('[$web_scraping](skill://web_scraping) and $web-scraping', all);
    expect(result.matched).toEqual([scrapingHcl]);
    expect(result.warnings).toHaveLength(1);
  });

  it('puts linked and plain mentions in text order', () => {
    expect(names('$deploy then [$cr](skill://code-review) then $home')).toEqual(['deploy', 'code-review', 'home']);
  });
});

describe('findSkillMentions: what is never a mention', () => {
  it('excludes common environment variables written in uppercase', () => {
    const shell = hclSkill('shell');
    const path = hclSkill('path');
    const text = 'echo $HOME $PATH $USER $PWD $SHELL $TMPDIR $LANG $TERM';
    expect(findSkillMentions(text, [home, shell, path])).toEqual({ matched: [], warnings: [] });
  });

  it('excludes environment variables in the linked form too', () => {
    expect(names('[$HOME](skill://home)')).toEqual([]);
  });

  it('matches environment variable names case-sensitively: $home is a skill, $HOME is not', () => {
    expect(names('$HOME and $Home')).toEqual(['home']);
  });

  it('treats $$ as an escaped dollar and ${...} as interpolation', () => {
    expect(names('$$deploy and ${deploy} and ${ deploy }')).toEqual([]);
    expect(names('$$$deploy')).toEqual(['deploy']);
  });

  it('ignores a $ glued to a preceding word', () => {
    expect(names('US$deploy a$code-review')).toEqual([]);
  });

  it('only considers the skills it is given', () => {
    expect(names('$deploy $code-review', [review])).toEqual(['code-review']);
  });
});

describe('findSkillMentions: cost', () => {
  it('scans a large adversarial text in linear time', () => {
    // Many `[$x](` never closed on one line: a naive scan re-reads the rest of the line each time.
    const unit = '[$deploy](';
    const small = unit.repeat(200) + '$deploy';
    const large = unit.repeat(20_000) + '$deploy';
    const time = (text: string): number => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        expect(names(text)).toEqual(['deploy']);
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    const tSmall = Math.max(time(small), 0.05);
    const tLarge = time(large);
    // 100x the text: linear is ~100x, quadratic ~10,000x. Generous bound for a shared machine.
    expect(tLarge / tSmall).toBeLessThan(1_000);
  });
});
