// The JSON paths result_read and result_search speak: `$`, then `.key`, `["any key"]` and `[index]`
// steps (a negative index counts from the end). Parsing errors are values the model can fix.

export type PathStep = string | number;

export function parsePath(path: string): { steps: PathStep[] } | { error: string } {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const steps: PathStep[] = [];
  while (rest.length > 0) {
    let m: RegExpExecArray | null;
    if ((m = /^\.([A-Za-z_$][\w$-]*)/.exec(rest))) steps.push(m[1]!);
    else if ((m = /^\[(-?\d+)\]/.exec(rest))) steps.push(Number(m[1]));
    else if ((m = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest))) steps.push(JSON.parse(m[1]!) as string);
    else if (steps.length === 0 && (m = /^([A-Za-z_][\w$-]*)/.exec(rest))) steps.push(m[1]!);
    else return { error: `cannot read the path ${JSON.stringify(path)} at ${JSON.stringify(rest.slice(0, 20))}: write it like $.items[3].name or $["a key"]` };
    rest = rest.slice(m[0].length);
  }
  return { steps };
}

export function walk(value: unknown, steps: readonly PathStep[]): { value: unknown } | { error: string } {
  let current = value;
  let where = '$';
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return { error: `${where} is not an array` };
      const i = step < 0 ? current.length + step : step;
      if (i < 0 || i >= current.length) return { error: `${where} has ${current.length} items; index ${step} is out of range` };
      current = current[i];
      where += `[${step}]`;
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return { error: `${where} is not an object` };
      if (!Object.prototype.hasOwnProperty.call(current, step)) {
        const keys = Object.keys(current);
        return { error: `${where} has no key ${JSON.stringify(step)}; its keys: ${keys.slice(0, 20).join(', ')}${keys.length > 20 ? ', …' : ''}` };
      }
      current = (current as Record<string, unknown>)[step];
      where += /^[A-Za-z_][A-Za-z0-9_]*$/.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`;
    }
  }
  return { value: current };
}
