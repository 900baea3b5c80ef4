// The oldest Node.js the CLI runs on, checked first thing at start-up (cli/entry.ts) so that an older
// Node prints one line instead of failing somewhere inside a dependency. It is the floor of package.json's
// "engines" (a test checks they agree), the minor the dependencies need (commander 15 and vitest 5
// declare 22.12, the OpenTelemetry OTLP exporters 22.15). scripts/check-node.cjs says the same at install.

export const MIN_NODE = '22.15.0';

/** The one-line refusal for `version` (process.versions.node), or undefined when it is recent enough. */
export function nodeTooOld(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = MIN_NODE.split('.').map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined;
  return `squadron: needs Node.js ${MIN_NODE} or later (22.x, 24.x or 26.x); this is Node.js ${version}. See "Requirements" in the README.`;
}
