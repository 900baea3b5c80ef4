// Questions to the operator: `builtins.human.ask`'s input checked, an answer checked against its
// question (a choice must be one of the choices), and an answer (or a decline) as the tool result the
// model reads.

import { z } from 'zod';
import type { ToolResult } from '../tools/types.js';
import type { OperatorAnswer, QuestionPayload } from './types.js';

export const HUMAN_ASK = 'builtins.human.ask';

const AskInput = z.object({
  question: z.string().trim().min(1),
  choices: z.array(z.string().trim().min(1)).min(1).optional(),
  multi_select: z.boolean().optional(),
});

/** The question a human.ask call asks, or the error result its model gets for a malformed one. */
export function askedQuestion(input: unknown): QuestionPayload | { error: string } {
  const parsed = AskInput.safeParse(input);
  if (!parsed.success) return { error: `builtins_human_ask needs {question: string, choices?: string[], multi_select?: boolean}: ${z.prettifyError(parsed.error)}` };
  const q: QuestionPayload = { question: parsed.data.question };
  if (parsed.data.choices) q.choices = parsed.data.choices;
  if (parsed.data.multi_select) q.multi_select = true;
  return q;
}

/** Why `answer` does not fit `question`, or undefined when it does. */
export function answerProblem(question: QuestionPayload, answer: OperatorAnswer): string | undefined {
  if (question.fields) {
    if (answer.text !== undefined && Object.keys(question.fields).length === 1) return answer.text.trim() === '' ? 'the answer is empty' : undefined;
    if (!answer.fields) return 'this question is a form: answer with --field name=value';
    for (const name of question.required ?? []) if (answer.fields[name] === undefined) return `the field "${name}" is required`;
    for (const name of Object.keys(answer.fields)) if (!(name in question.fields)) return `the form has no field "${name}" (fields: ${Object.keys(question.fields).join(', ')})`;
    return undefined;
  }
  if (answer.choices) {
    if (!question.choices) return 'this question has no choices: answer with text';
    if (answer.choices.length === 0) return 'no choice given';
    if (answer.choices.length > 1 && !question.multi_select) return 'this question takes one choice';
    const unknown = answer.choices.find((c) => !question.choices!.includes(c));
    if (unknown !== undefined) return `"${unknown}" is not one of the choices: ${question.choices.join(', ')}`;
    return undefined;
  }
  if (answer.text === undefined || answer.text.trim() === '') return 'the answer is empty';
  return undefined;
}

/** What the model reads as the human.ask call's result. */
export function answerResult(status: 'answered' | 'declined', answer: OperatorAnswer | undefined, reason?: string): ToolResult {
  if (status === 'declined') {
    return { content: [{ type: 'text', text: `The operator declined to answer${reason ? `: ${reason}` : ''}.` }], isError: true };
  }
  const text = answer?.choices ? `The operator chose: ${answer.choices.join(', ')}` : answer?.fields ? `The operator answered: ${JSON.stringify(answer.fields)}` : `The operator answered: ${answer?.text ?? ''}`;
  return { content: [{ type: 'text', text }], isError: false };
}
