// What a caller implements to ask a person while a run goes on (approvals, questions): the terminal's
// prompt in the CLI, a web form in a console. Without one, requests wait and the run ends `waiting`.

export type { OperatorPrompt, PromptReply, PromptRequest, QuestionPayload, OperatorAnswer } from '../runtime/operator/types.js';
