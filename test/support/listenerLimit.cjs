// Preloaded (node -r) into a CLI process under test: every AbortController's signal gets Node 20's
// limit of 10 listeners, so a listener leak prints MaxListenersExceededWarning on any Node (Node 26
// leaves an AbortSignal unlimited and would hide it).
const { setMaxListeners } = require('node:events');
const Original = globalThis.AbortController;
globalThis.AbortController = class extends Original {
  constructor() {
    super();
    setMaxListeners(10, this.signal);
  }
};
