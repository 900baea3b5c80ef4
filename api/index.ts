// Squadron as a library: the typed entry points the CLI itself is built on. Load and validate a
// config, plan a mission, run it and resume it, and follow a run through its event stream.
//
//   import { run } from 'squadron-agents';
//   const report = await run({ config: 'mission.hcl', inputs: { topic: 'tides' }, onEvent: (e) => console.log(e.type) });
//
// Problems the caller can fix are thrown as SquadronError (a `code`, and for an invalid config every
// diagnostic); a run that fails is not an exception: its report says `failed`.


export { loadConfig } from '../config/load.js';
export type { LoadOptions, LoadResult, LoadedFiles } from '../config/load.js';
export type { NamedSecret } from '../config/secrets.js';
export type { Diagnostic } from '../config/hcl/diagnostic.js';
export type { MissionGraph, Mission } from '../config/graph.js';
export type { RunEvent, RunEventType, GivenTool, GivenSkill } from '../runtime/kernel/events.js';
export type { RunReport, TaskReport, BudgetReport, RunStart, RunWatcher } from '../runtime/run/run.js';
export type { OperatorPrompt, PromptRequest, PromptReply, OperatorAnswer, QuestionPayload } from '../runtime/operator/types.js';
export type { MissionPlan, TaskPlan, AgentPlan } from '../runtime/plan/plan.js';
export { SquadronError, type SquadronErrorCode } from './errors.js';
export { fork, diff, type ForkRequest, type DiffRequest, type RunDiff, type TaskDiff, type TaskSide } from './fork.js';
export { openProject, selectMission, selectionOverrides, type LoadedProject, type ProjectOptions, type Selection } from './project.js';
export { listRuns, getRun, type RunListItem } from './runDocuments.js';
export { listRunsPage, taskSessions, transcriptPage, runLedger, inbox, usageByModel, storedResult, triggerDeliveries, type DeliveryEntry, type RunsPage, type TranscriptPage } from './consoleData.js';
export { missionInputSchema, missionResultSchema, type JsonSchemaObject } from './missionSchemas.js';
// The `--json` documents (snake_case), each built from a typed result (camelCase) in one place.
export { runReportJson } from './runReportJson.js';
export { inspectionJson } from './inspectJson.js';
export { requestJson } from './requestJson.js';
export { decide, type DecideAction } from './decide.js';
export { createToken, listTokens, revokeToken, verifyToken, type TokenRow } from './tokens.js';
export { openRunStore, isDatabaseBusy, type RunStore, type EventRow, type OperatorRequestRow, type RunSummary } from './runStore.js';
export { recoverableRuns } from './recoverable.js';
export type { AcceptedDelivery } from '../store/repos/webhookDeliveries.js';
export { followEvents, type FollowedEvent } from './followEvents.js';
export { checkSignature, checkSharedSecret, signPayload, SIGNATURE_TOLERANCE_S } from './webhookSignature.js';
export type { Trigger, Schedule } from '../config/graph.js';
export { nextFires, zonedTime } from '../config/stages/schedule.js';

// The rest of the door: each operation of a command, typed. The light ones are exported as they are;
// those that load the runtime's heavier parts (MCP, the vault's crypto, the store) load them when called.
export { formatSource, formatFiles, type FormattedText, type FormattedFile, type FormatOptions, type FormatReport } from './fmt.js';
export { missionTaskGraph, type TaskGraph, type TaskEdge, type TaskEdgeKind } from './graph.js';
export { taskTools, type ToolsRequest, type TaskTools, type ToolSearchPage, type ListedTool, type RankedListedTool } from './tools.js';
export { checkConfig, summarize, summarizeItem, summarizeMission, type CheckRequest, type McpToolLister, type McpToolListing, type MissionSummary } from './validate.js';
export { capDiagnostics, countSummary, diagnosticToJson, renderDiagnostics, sortDiagnostics, sourceReaderFor } from './diagnostics.js';
export { followRun, type FollowRunOptions } from './followEvents.js';
export { waitingRequests, operatorName } from './decide.js';
export { totalTokens, describeLimits, describeAmount, spendText, parseBudgetFlag, BUDGET_KINDS, type UsageTotals, type Limits } from './usage.js';
export { SQUADRON_DIR, databasePath, runLogPath, workspacePath, IGNORE_FILE } from './projectFiles.js';
export type { RunInspection, SessionTranscript, StoredResultInspection, Part } from './inspect.js';
export type { McpLogin, McpLoginStatus, LoginRequest } from './mcpLogin.js';

export { listTopics, findTopic, pageSummary, type DocTopic } from './docs.js';
export { initProject, INIT_PROVIDER_NAMES, type InitRequest, type InitResult } from './init.js';
export { IDEMPOTENCY_KEY_WINDOW_MS, pruneRuns, SIGNATURE_MEMORY_MS, type PruneRequest, type PruneResult, type PrunedRun } from './prune.js';
export { inspectRun, inspectStoredResult, readVaultValues, writeVaultValues, mcpLogin, mcpLogout, mcpLoginStatus } from './onDemand.js';
export { validate, plan, resolveRun, run, enqueue, newRunId, checkRunInputs, work, resume, requeue, databaseLocation, runEnvironment, type MissionRequest, type PlanRequest, type RunHooks, type RunRequest, type RunSpec, type RunSpecHooks, type WorkRequest, type ResumeRequest } from './runs.js';

export type { TestRequest, TestReport, TestResult, TestFailure, TrialResult, TestStatus, CheckedTests } from './test.js';

/** Runs the `*.sqtest.hcl` tests of a config (squadron test). */
export async function test(req: import('./test.js').TestRequest): Promise<import('./test.js').TestReport> {
  return (await import('./test.js')).test(req);
}

export { openChat, chatAgentChoices, chatAgentOf, CHAT_TASK, type ChatRequest, type ChatAgentChoice, type Chat, type ChatLine, type ChatReply, type ChatTurnHooks } from './chat.js';
