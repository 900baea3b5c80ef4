// The yaml package, loaded on first use. It is about 70 modules that only SKILL.md front matter
// needs; importing it statically put its load time on every command's start-up. Loading is
// synchronous (require) because the config loader is.

import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

let loaded: Yaml | undefined;

export function yaml(): Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as Yaml;
  return loaded;
}
