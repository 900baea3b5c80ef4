// One durable step: store writes and the events they emit, committed together. The step's writes go
// through `tx.store` and its events through `tx.emit`, so the run's store sink writes them in the same
// transaction (awaited before it commits) while the other sinks see them as usual.

import type { Store } from '../../store/index.js';
import type { EventBus, EventScope, RunEvent } from './events.js';

export interface StepTx {
  store: Store;
  emit(event: RunEvent): void;
}

export function durableStep<T>(store: Store, bus: EventBus, fn: (tx: StepTx) => Promise<T>): Promise<T> {
  return store.transaction(async (txStore) => {
    const scope: EventScope = { store: txStore, writes: [] };
    const result = await fn({ store: txStore, emit: (event) => bus.emit(event, scope) });
    while (scope.writes.length > 0) await Promise.all(scope.writes.splice(0));
    return result;
  });
}
