// The files a project keeps beside its config: the .squadron folder (database, run logs, workspaces,
// caches) and .squadronignore (the paths the loader skips). Names only; nothing is read here.

export { SQUADRON_DIR, databasePath, runLogPath, workspacePath } from '../config/projectLayout.js';
export { IGNORE_FILE } from '../config/ignoreFile.js';
