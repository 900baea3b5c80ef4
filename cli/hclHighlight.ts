// Colours HCL code blocks of the docs for a terminal (the highlighter marked-terminal uses has no
// HCL): comments, strings, literals, block types and attribute names, line by line. A reading aid,
// not a parser: what it does not recognise stays uncoloured.

const HCL_STYLES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:#|\/\/).*/, '90'], // comment: grey
  [/^"(?:[^"\\]|\\.)*"/, '32'], // string: green
  [/^<<-?\w+/, '32'], // heredoc marker
  [/^(?:true|false|null|\d+(?:\.\d+)?)\b/, '35'], // literal: magenta
  [/^[A-Za-z_][\w-]*(?=\s*(?:"[^"]*"\s*)*\{)/, '36;1'], // block type: bold cyan
  [/^[A-Za-z_][\w-]*(?=\s*=(?!=))/, '36'], // attribute name: cyan
];

/** A small HCL colouring, line by line: comments, strings, literals, block types and attribute names. */
export function highlightHcl(code: string): string {
  return code
    .split('\n')
    .map((line) => {
      let out = '';
      let rest = line;
      while (rest !== '') {
        const hit = HCL_STYLES.map(([re, sgr]) => [re.exec(rest)?.[0], sgr] as const).find(([m]) => m !== undefined && m !== '');
        if (hit !== undefined) {
          out += `\u001b[${hit[1]}m${hit[0]}\u001b[0m`;
          rest = rest.slice(hit[0]!.length);
          continue;
        }
        const plain = /^(?:[A-Za-z_][\w.-]*|\s+|.)/.exec(rest)![0];
        out += plain;
        rest = rest.slice(plain.length);
      }
      return out;
    })
    .join('\n');
}
