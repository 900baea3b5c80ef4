// The files a run uses besides its database, checked before anything runs or is stored: its
// workspace folder, the cassette it records to, the cassette it replays.

import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { CassetteFormatError, readCassette } from '../providers/cassette.js';
import { RunRefused } from './runRefused.js';

/**
 * Fails before anything runs (or is stored) when the workspace, the cassette to record or the
 * cassette to replay cannot be used: a replay cassette is read and checked whole first, so a
 * missing or corrupt one is refused instead of failing the run's first model call.
 */
export function checkRunFiles(workspaceDir: string, { record, replay }: { record?: string | undefined; replay?: string | undefined }): void {
  if (replay !== undefined) {
    try {
      readCassette(replay);
    } catch (error) {
      if (error instanceof CassetteFormatError) throw new RunRefused(`--replay: ${error.message}; nothing ran`, 'usage');
      throw error;
    }
  }
  try {
    if (!statSync(workspaceDir).isDirectory()) throw new RunRefused(`the workspace ${workspaceDir} exists and is not a directory`);
  } catch (error) {
    if (error instanceof RunRefused) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new RunRefused(`cannot use the workspace ${workspaceDir}: ${(error as Error).message}`);
  }
  if (record === undefined) return;
  try {
    mkdirSync(dirname(record), { recursive: true });
    closeSync(openSync(record, 'a'));
  } catch (error) {
    throw new RunRefused(`cannot write the cassette ${record}: ${(error as Error).message}`);
  }
}
