// A deterministic generator of valid HCL documents that exercise every native-syntax form: nested
// blocks with 0-3 labels, one-line blocks, all three comment styles, every expression form,
// heredocs (plain and indented), templates with directives and strip markers, and unicode. The
// same seed always yields the same documents, so a projection mismatch is reproducible.

/** mulberry32: small, fast, good enough for test data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['name', 'model', 'region', 'tools', 'prompt', 'retries', 'enabled', 'limit', 'tags', 'café', 'data_set', 'max-tokens', 'x', 'y2', '_hidden'];
const ROOTS = ['vars', 'models', 'agents', 'tasks', 'inputs', 'item', 'each', 'local', 'ü'];
const FUNCS = ['upper', 'lower', 'format', 'join', 'length', 'merge', 'concat', 'lookup', 'coalesce', 'max', 'provider::ns::fn'];
const WORDS = ['hello', 'world', 'agent', 'mission', 'naïve', 'über', '日本語', 'emoji 🚀', 'tab\\there', 'quote \\"q\\"', 'back\\\\slash', 'line\\nbreak', 'uni \\u00e9', 'dollar $ sign', 'percent % sign', 'esc $${x}', 'esc %%{y}', ''];
const TYPES = ['agent', 'task', 'model', 'tool', 'settings', 'router', 'route', 'variable', 'mcp', 'skill', 'dynamic', 'nested'];

export class HclGenerator {
  private readonly r: () => number;
  private heredocCount = 0;

  constructor(seed: number) {
    this.r = rng(seed);
  }

  private int(n: number): number {
    return Math.floor(this.r() * n);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }

  private chance(p: number): boolean {
    return this.r() < p;
  }

  document(): string {
    return this.body(0, '', 3 + this.int(8));
  }

  private comment(): string {
    switch (this.int(3)) {
      case 0:
        return `# ${this.pick(WORDS)}`;
      case 1:
        return `// ${this.pick(WORDS)}`;
      default:
        return this.chance(0.5) ? `/* ${this.pick(WORDS)} */` : `/*\n  multi ${this.pick(WORDS)}\n*/`;
    }
  }

  private trailer(): string {
    if (!this.chance(0.2)) return '';
    const c = this.int(3);
    return c === 0 ? ` # ${this.pick(WORDS)}` : c === 1 ? ` // note` : ` /* inline */`;
  }

  private body(depth: number, indent: string, items: number): string {
    let out = '';
    const usedAttrs = new Set<string>();
    const blockLabels = new Map<string, number>();
    for (let i = 0; i < items; i++) {
      const roll = this.r();
      if (roll < 0.12) {
        out += indent + this.comment() + '\n';
      } else if (roll < 0.17) {
        out += '\n';
      } else if (roll < 0.62 || depth >= 3) {
        const name = this.pick(NAMES);
        if (usedAttrs.has(name) || blockLabels.has(name)) continue;
        usedAttrs.add(name);
        const pad = this.chance(0.3) ? ' '.repeat(1 + this.int(4)) : ' ';
        const h = this.r();
        if (h < 0.12) {
          // A heredoc must end its line, so it is the whole value (no trailing comment).
          out += `${indent}${name}${pad}= ${this.heredoc(1, indent)}\n`;
        } else if (h < 0.16) {
          // Inside brackets newlines are insignificant: a heredoc can be followed by more items.
          out += `${indent}${name}${pad}= [\n${indent}  ${this.heredoc(1, indent + '  ')}\n${indent}  , ${this.quoted(1)}, ${this.heredoc(1, indent + '  ')}\n${indent}]\n`;
        } else {
          out += `${indent}${name}${pad}= ${this.expr(0, indent)}${this.trailer()}\n`;
        }
      } else {
        const type = this.pick(TYPES);
        if (usedAttrs.has(type)) continue;
        const nLabels = blockLabels.get(type) ?? this.int(4);
        blockLabels.set(type, nLabels);
        const labels: string[] = [];
        for (let l = 0; l < nLabels; l++) {
          labels.push(this.chance(0.8) ? `"${this.pick(['a', 'b', 'main', 'web search', 'ñ', 'x-1', 'é😀'])}"` : this.pick(['lbl', 'other_label']));
        }
        const head = [type, ...labels].join(' ');
        const style = this.r();
        if (style < 0.12) {
          out += `${indent}${head} {}${this.trailer()}\n`;
        } else if (style < 0.25) {
          out += `${indent}${head} { ${this.pick(NAMES)} = ${this.simpleExpr()} }${this.trailer()}\n`;
        } else {
          const inner = this.body(depth + 1, indent + '  ', this.int(6));
          out += `${indent}${head} {${this.trailer()}\n${inner}${indent}}\n`;
        }
      }
    }
    return out;
  }

  private simpleExpr(): string {
    switch (this.int(5)) {
      case 0:
        return this.number();
      case 1:
        return this.quoted(1);
      case 2:
        return this.traversal();
      case 3:
        return this.pick(['true', 'false', 'null']);
      default:
        return `[${this.number()}, ${this.quoted(1)}]`;
    }
  }

  private number(): string {
    switch (this.int(6)) {
      case 0:
        return String(this.int(1000));
      case 1:
        return `${this.int(100)}.${this.int(100)}`;
      case 2:
        return `${1 + this.int(9)}e${this.int(5)}`;
      case 3:
        return `${1 + this.int(9)}.5E-${this.int(3)}`;
      case 4:
        return `-${this.int(50)}`;
      default:
        return '0';
    }
  }

  private traversal(): string {
    let s = this.pick(ROOTS);
    const steps = this.int(4);
    let lastLegacy = false;
    for (let i = 0; i < steps; i++) {
      const kind = this.int(6);
      // `.0.1` would scan as the number 0.1: a syntax error, so never chain legacy indexes.
      if (kind === 2 && lastLegacy) continue;
      lastLegacy = kind === 2;
      switch (kind) {
        case 0:
          s += `[${this.int(5)}]`;
          break;
        case 1:
          s += `["${this.pick(['k', 'a b', 'é'])}"]`;
          break;
        case 2:
          s += `.${this.int(3)}`;
          break;
        case 3:
          s += `[${this.pick(ROOTS)}.${this.pick(NAMES)}]`;
          break;
        default:
          s += `.${this.pick(NAMES)}`;
      }
    }
    return s;
  }

  expr(depth: number, indent: string): string {
    if (depth > 3) return this.simpleExpr();
    const d = depth + 1;
    switch (this.int(20)) {
      case 0:
        return this.number();
      case 1:
        return this.pick(['true', 'false', 'null']);
      case 2:
      case 3:
        return this.quoted(d);
      case 4:
      case 5:
        return this.traversal();
      case 6: {
        const multi = this.chance(0.3);
        const n = this.int(4);
        const items = Array.from({ length: n }, () => this.expr(d, indent + '  '));
        if (multi && n > 0) return `[\n${items.map((i) => `${indent}  ${i},`).join('\n')}\n${indent}]`;
        return `[${items.join(', ')}${n > 0 && this.chance(0.2) ? ',' : ''}]`;
      }
      case 7:
        return this.object(d, indent);
      case 8: {
        const f = this.pick(FUNCS);
        const n = this.int(4);
        const args = Array.from({ length: n }, () => this.expr(d, indent));
        const expand = n > 0 && this.chance(0.15) ? '...' : '';
        if (this.chance(0.2) && n > 0) return `${f}(\n${args.map((a) => `${indent}  ${a}`).join(',\n')}${expand}\n${indent})`;
        return `${f}(${args.join(', ')}${expand})`;
      }
      case 9:
        // hcl2json folds `-<number>` and `!<bool>`; `!<number>` makes it fail, so avoid that.
        if (this.chance(0.5)) return `!${this.chance(0.5) ? this.pick(['true', 'false']) : this.traversal()}`;
        return `-${this.chance(0.5) ? this.number().replace('-', '') : this.traversal()}`;
      case 10:
      case 11: {
        const op = this.pick(['+', '-', '*', '/', '%', '==', '!=', '<', '>', '<=', '>=', '&&', '||']);
        return `${this.expr(d, indent)} ${op} ${this.expr(d, indent)}`;
      }
      case 12:
        return `${this.expr(d, indent)} ? ${this.expr(d, indent)} : ${this.expr(d, indent)}`;
      case 13: {
        const v = this.pick(['x', 'item', 'v']);
        const key = this.chance(0.4) ? `k, ` : '';
        const cond = this.chance(0.4) ? ` if ${v} != null` : '';
        if (this.chance(0.5)) return `[for ${key}${v} in ${this.traversal()} : ${this.expr(d, indent)}${cond}]`;
        const group = this.chance(0.3) ? '...' : '';
        return `{for ${key}${v} in ${this.traversal()} : ${v}.${this.pick(NAMES)} => ${this.expr(d, indent)}${group}${cond}}`;
      }
      case 14:
        return this.chance(0.5) ? `${this.traversal()}[*].${this.pick(NAMES)}` : `${this.traversal()}.*.${this.pick(NAMES)}`;
      case 15:
        return `(${this.expr(d, indent)})`;
      case 16:
        return `"\${${this.traversal()}}"`;
      case 17:
        return `${this.pick(FUNCS.slice(0, 5))}(${this.traversal()})[${this.int(3)}]`;
      case 18:
        return `-${this.number().replace('-', '')}`;
      default:
        return this.quoted(d);
    }
  }

  private object(depth: number, indent: string): string {
    const n = this.int(4);
    const used = new Set<string>();
    const items: string[] = [];
    for (let i = 0; i < n; i++) {
      let key: string;
      switch (this.int(5)) {
        case 0:
          key = `"${this.pick(['k', 'a b', 'é', '$${x}', 'emoji 🚀'])}"`;
          break;
        case 1:
          key = `(${this.traversal()})`;
          break;
        case 2:
          key = String(this.int(9));
          break;
        default:
          key = this.pick(NAMES);
      }
      if (used.has(key) || key === 'for') continue;
      used.add(key);
      items.push(`${key} ${this.chance(0.15) ? ':' : '='} ${this.expr(depth, indent + '  ')}`);
    }
    if (items.length === 0) return this.chance(0.5) ? '{}' : '{\n' + indent + '}';
    if (this.chance(0.5)) return `{ ${items.join(', ')} }`;
    return `{\n${items.map((i) => `${indent}  ${i}${this.chance(0.3) ? ',' : ''}`).join('\n')}\n${indent}}`;
  }

  private textChunk(): string {
    return this.pick(WORDS);
  }

  private quoted(depth: number): string {
    let s = '"';
    const n = this.int(5);
    for (let i = 0; i < n; i++) {
      switch (this.int(6)) {
        case 0:
        case 1:
          s += this.textChunk();
          break;
        case 2:
          s += `\${${this.chance(0.2) ? '~' : ''}${depth > 2 ? this.traversal() : this.expr(depth + 1, '')}${this.chance(0.2) ? '~' : ''}}`;
          break;
        case 3:
          s += ` \${${this.traversal()}} `;
          break;
        case 4:
          s += `%{${this.chance(0.3) ? '~' : ''} if ${this.traversal()} ${this.chance(0.3) ? '~' : ''}}${this.textChunk()}${this.chance(0.5) ? `%{ else }${this.textChunk()}` : ''}%{ endif }`;
          break;
        default:
          s += `%{ for ${this.chance(0.5) ? 'i, ' : ''}x in ${this.traversal()} ${this.chance(0.3) ? '~' : ''}}[\${x}]%{${this.chance(0.3) ? '~' : ''} endfor }`;
      }
    }
    return s + '"';
  }

  private heredoc(depth: number, indent: string): string {
    const marker = this.pick(['EOT', 'EOF', 'END', 'PROMPT']) + (this.heredocCount++ % 3 === 0 ? '' : String(this.int(9)));
    const flush = this.chance(0.6);
    const base = flush ? indent + ' '.repeat(2 + this.int(3)) : '';
    const lines: string[] = [];
    const n = 1 + this.int(5);
    for (let i = 0; i < n; i++) {
      const extra = this.chance(0.3) ? ' '.repeat(1 + this.int(4)) : '';
      switch (this.int(7)) {
        case 0:
          lines.push('');
          break;
        case 1:
          lines.push(`${base}${extra}Value: \${${depth > 2 ? this.traversal() : this.expr(depth + 1, '')}}`);
          break;
        case 2:
          lines.push(`${base}%{ if ${this.traversal()} ~}`);
          lines.push(`${base}${extra}conditional ${this.pick(WORDS.filter((w) => !w.includes('\\')))}`);
          lines.push(`${base}%{ endif ~}`);
          break;
        case 3:
          lines.push(`${base}%{~ for x in ${this.traversal()} }`);
          lines.push(`${base}  - \${x}`);
          lines.push(`${base}%{~ endfor }`);
          break;
        case 4:
          lines.push(`${flush && this.chance(0.3) ? base.replace('  ', '\t') : base}${extra}tabbed or "quoted" $${'{'}literal} and %%{'{'}also}`);
          break;
        default:
          lines.push(`${base}${extra}${this.pick(['You are a helpful agent.', 'Ünïcødé text 😀', 'cost: $5 or 50%', 'a \\n is literal here'])}`);
      }
    }
    const close = flush ? indent + (this.chance(0.5) ? '  ' : '') + marker : marker;
    return `<<${flush ? '-' : ''}${marker}\n${lines.join('\n')}\n${close}`;
  }
}

/** `count` documents from `seed`. */
export function generateDocuments(seed: number, count: number): string[] {
  const docs: string[] = [];
  for (let i = 0; i < count; i++) docs.push(new HclGenerator(seed * 7919 + i).document());
  return docs;
}
