// Every repository of the Store, written once for both backends on a driver (sql/driver.ts): the
// SQLite store and the PostgreSQL store each make them on their own driver. (The queue of units of
// work is PostgreSQL's alone: postgres/repos/units.ts.)

import type { Store } from '../store.js';
import type { QueryContext } from '../sql/driver.js';
import { createBudgetsRepo } from './budgets.js';
import { createContextViewsRepo } from './contextViews.js';
import { createEventsRepo } from './events.js';
import { createForksRepo } from './forks.js';
import { createItemsRepo } from './items.js';
import { createLedgerRepo } from './ledger.js';
import { createLeasesRepo } from './leases.js';
import { createMessagesRepo } from './messages.js';
import { createOperatorRequestsRepo } from './operatorRequests.js';
import { createRoutesRepo } from './routes.js';
import { createRunCancelsRepo } from './runCancels.js';
import { createRunsRepo } from './runs.js';
import { createSchedulesRepo } from './schedules.js';
import { createServiceHistoryRepo } from './serviceHistory.js';
import { createSessionsRepo } from './sessions.js';
import { createStoredResultsRepo } from './storedResults.js';
import { createTasksRepo } from './tasks.js';
import { createTokensRepo } from './tokens.js';
import { createTurnsRepo } from './turns.js';
import { createWebhookDeliveriesRepo } from './webhookDeliveries.js';

export const REPO_NAMES = [
  'runs', 'tasks', 'items', 'sessions', 'messages', 'ledger', 'turns', 'events', 'routes', 'leases', 'storedResults',
  'contextViews', 'operatorRequests', 'budgets', 'forks', 'tokens', 'webhookDeliveries', 'schedules',
  'runCancels', 'serviceHistory',
] as const;
export type RepoName = (typeof REPO_NAMES)[number];
export type Repos = Pick<Store, RepoName>;

export function createRepos(q: QueryContext): Repos {
  return {
    runs: createRunsRepo(q),
    tasks: createTasksRepo(q),
    items: createItemsRepo(q),
    sessions: createSessionsRepo(q),
    messages: createMessagesRepo(q),
    ledger: createLedgerRepo(q),
    turns: createTurnsRepo(q),
    events: createEventsRepo(q),
    routes: createRoutesRepo(q),
    leases: createLeasesRepo(q),
    storedResults: createStoredResultsRepo(q),
    contextViews: createContextViewsRepo(q),
    operatorRequests: createOperatorRequestsRepo(q),
    budgets: createBudgetsRepo(q),
    forks: createForksRepo(q),
    tokens: createTokensRepo(q),
    webhookDeliveries: createWebhookDeliveriesRepo(q),
    schedules: createSchedulesRepo(q),
    runCancels: createRunCancelsRepo(q),
    serviceHistory: createServiceHistoryRepo(q),
  };
}
