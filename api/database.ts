// Where a project keeps its files (the .squadron folder: database, run logs, workspaces, caches) and
// how a database is named (a SQLite path or a PostgreSQL connection string): what a caller needs to
// find a run's database before opening it with openRunStore. Light on purpose: nothing here loads the
// store's drivers, so a command may import it at start-up.

export { SQUADRON_DIR, databasePath, runLogPath, workspacePath } from '../config/projectLayout.js';
export { isPostgresUrl, shownPostgresUrl } from '../store/postgres/url.js';
export { StoreError } from '../store/errors.js';
