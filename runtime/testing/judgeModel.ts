// Which model answers a test's judge() calls and through which client: the mission commander's
// model, replayed from the test's cassette in a replay, recorded into it with --record, called
// live otherwise. Judge turns are filed in the cassette under the test's own trace, so they never
// collide with the mission's turns.

import type { Mission, MissionGraph } from '../../config/graph.js';
import { ModelResolver } from '../model/models.js';
import { createModelClient } from '../providers/factory.js';
import { createReplayClient } from '../providers/replay.js';
import { secretRedactor } from '../run/secretRedactor.js';
import type { JudgeModel } from './judge.js';

export type JudgeMode = { kind: 'replay'; cassette: string } | { kind: 'record'; cassette: string } | { kind: 'live' };

export function judgeModel(graph: MissionGraph, mission: Mission, mode: JudgeMode, testName: string): JudgeModel {
  const ref = mission.commander.model;
  const redactor = secretRedactor(graph);
  const resolver = new ModelResolver(graph, (block) =>
    mode.kind === 'replay'
      ? createReplayClient({ cassette: mode.cassette, redactor })
      : createModelClient(block, { redactor, ...(mode.kind === 'record' ? { record: { cassette: mode.cassette } } : {}) }),
  );
  return { client: resolver.client(ref), model: resolver.sessionModel(ref, undefined), trace: { task: `test.${testName}`, agent: 'judge' } };
}
