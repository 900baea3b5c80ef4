// Hints for names that configs of the first implementation use inside blocks and Squadron does not
// have (docs/concepts/migrate-from-go.md): a hint that knows the name beats the nearest spelling
// ("scratchpad" is not a misspelt "skills").

const HINTS: Readonly<Record<string, string>> = {
  memory: 'shared and mission memory are not supported yet (see squadron docs migrate-from-go): pass what a later run needs as an input, or keep it in files with the builtins.files tools',
  memories: 'shared memories are not supported yet (see squadron docs migrate-from-go)',
  scratchpad: 'the scratchpad is not supported yet: the builtins.files tools write to the run\'s workspace, which lasts for the run',
  packets: 'packets are not supported yet (see squadron docs migrate-from-go): point the builtins.files tools at the folder',
  folders: 'folders were replaced by memories, which are not supported yet (see squadron docs migrate-from-go)',
  folder: 'folders were replaced by memories, which are not supported yet (see squadron docs migrate-from-go)',
  run_folder: 'the builtins.files tools write to the run\'s workspace (.squadron/workspaces/<run-id>)',
};

/** The hint for a name known from the first implementation, if it is one. */
export function goNameHint(name: string): string | undefined {
  return HINTS[name];
}
