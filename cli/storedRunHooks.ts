// What `resume` and `fork` hand the API for a run they continue from the store: the interrupt, the
// progress view, a prompt when a person is at the terminal, and — once the stored run's config is
// loaded — its secrets masked in everything printed and its warnings shown.

import type { ResumeRequest } from '../api/index.js';
import type { CliIo } from './io.js';
import { promptIfTerminal } from './operatorPrompt.js';
import { maskSecrets, printWarnings, secretsSeen } from './project.js';
import { progressFor } from './runReport.js';

export type StoredRunHooks = Pick<ResumeRequest, 'signal' | 'watch' | 'operatorPrompt' | 'onSecrets' | 'onLoaded'>;

export function storedRunHooks(io: CliIo, json: boolean, seen: ReturnType<typeof secretsSeen>, signal: AbortSignal): StoredRunHooks {
  return {
    signal,
    watch: progressFor(io, json),
    ...promptIfTerminal(io),
    onSecrets: seen.record,
    onLoaded: async (project) => {
      await maskSecrets(io, seen.secrets());
      printWarnings(io, project);
    },
  };
}
