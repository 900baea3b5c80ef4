// Locates files shipped beside the code (prompts/, migrations/, docs/, examples/). The same code runs
// from TypeScript sources (tests) and from dist/ (the CLI), so the package root is found by walking
// up to our package.json rather than by a fixed relative path.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The npm package's name (the command it installs is `squadron`; the name `squadron` is another package's). */
export const PACKAGE_NAME = 'squadron-agents';

let cachedRoot: string | undefined;

export function packageRoot(): string {
  if (cachedRoot !== undefined) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === PACKAGE_NAME) {
        cachedRoot = dir;
        return dir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot locate the ${PACKAGE_NAME} package root`);
    dir = parent;
  }
}

export function assetPath(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}
