// Hints for names that configs of the first implementation use inside blocks and Squadron does not
// have (docs/concepts/migrate-from-go.md): a hint that knows the name beats the nearest spelling
// ("scratchpad" is not a misspelt "skills").

const HINTS: Readonly<Record<string, string>> = {
  folders: 'the `folders` attribute is no longer supported: use memories = [memories.NAME, ...] on the mission',
  folder: 'the `folder { ... }` block is no longer supported: use memory { description = "..." } on the mission (its folder is made for you)',
  run_folder: 'the `run_folder { ... }` block is no longer supported: use scratchpad = true on the mission (a folder of the run\'s own)',
};

/** The hint for a name known from the first implementation, if it is one. */
export function goNameHint(name: string): string | undefined {
  return HINTS[name];
}
