// The Gemini translations on their own: chunks folded into canonical parts (signatures kept on the
// part they came with, wherever in the stream they arrive) and canonical messages into contents.

import type { GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { GeminiResponseAccumulator, normalizeUsage } from '../../../runtime/providers/geminiStream.js';
import { PLACEHOLDER_THOUGHT_SIGNATURE, toGeminiParams } from '../../../runtime/providers/geminiRequest.js';
import { AttemptFailed } from '../../../runtime/providers/retry.js';
import type { Message } from '../../../runtime/providers/types.js';
import { request, userText } from './sampleRequests.js';

const chunk = (parts: object[], finishReason?: string): GenerateContentResponse =>
  ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }] }) as GenerateContentResponse;

function fold(...chunks: GenerateContentResponse[]) {
  let n = 0;
  const texts: string[] = [];
  const accumulator = new GeminiResponseAccumulator((t) => texts.push(t), () => `gemini_call_${++n}`);
  for (const c of chunks) accumulator.apply(c);
  return { response: accumulator.finish(), texts };
}

describe('folding Gemini chunks', () => {
  it('joins text pieces and puts a signature that comes last on an empty part onto that text', () => {
    const { response, texts } = fold(chunk([{ text: 'Hel' }]), chunk([{ text: 'lo.' }]), chunk([{ text: '', thoughtSignature: 'c2ln' }], 'STOP'));
    expect(response.message.parts).toEqual([{ type: 'text', text: 'Hello.', thoughtSignature: 'c2ln' }]);
    expect(texts).toEqual(['Hel', 'lo.']);
    expect(response.stopReason).toBe('end_turn');
  });

  it('starts a new part after a signed one, and keeps a lone signature after a call as its own part', () => {
    const { response } = fold(
      chunk([{ text: 'A', thoughtSignature: 's1' }]),
      chunk([{ text: 'B' }]),
      chunk([{ functionCall: { name: 'f', args: { x: 1 } }, thoughtSignature: 's2' }, { functionCall: { name: 'f', args: { x: 2 } } }]),
      chunk([{ text: '', thoughtSignature: 's3' }], 'STOP'),
    );
    expect(response.message.parts).toEqual([
      { type: 'text', text: 'A', thoughtSignature: 's1' },
      { type: 'text', text: 'B' },
      { type: 'tool_use', id: 'gemini_call_1', name: 'f', input: { x: 1 }, thoughtSignature: 's2' },
      { type: 'tool_use', id: 'gemini_call_2', name: 'f', input: { x: 2 } },
      { type: 'text', text: '', thoughtSignature: 's3' },
    ]);
    expect(response.stopReason).toBe('tool_use');
  });

  it('keeps thought parts apart from text, and a server id when there is one', () => {
    const { response, texts } = fold(
      chunk([{ text: 'think', thought: true }]),
      chunk([{ text: 'ing', thought: true, thoughtSignature: 't1' }]),
      chunk([{ functionCall: { id: 'srv-1', name: 'g', args: {} } }], 'STOP'),
    );
    expect(response.message.parts).toEqual([
      { type: 'thinking', text: 'thinking', thoughtSignature: 't1' },
      { type: 'tool_use', id: 'srv-1', name: 'g', input: {} },
    ]);
    expect(texts).toEqual([]);
  });

  it('reads MAX_TOKENS and safety stops, and fails a stream that never finished as a retryable drop', () => {
    expect(fold(chunk([{ text: 'cut' }], 'MAX_TOKENS')).response.stopReason).toBe('max_tokens');
    expect(fold(chunk([], 'SAFETY')).response.stopReason).toBe('refusal');
    const error = (() => {
      try {
        fold(chunk([{ text: 'half' }]));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AttemptFailed);
    expect((error as AttemptFailed).failure).toMatchObject({ kind: 'stream', retryable: true });
  });

  it('takes cached tokens out of the prompt and counts thoughts as output', () => {
    expect(normalizeUsage({ promptTokenCount: 100, cachedContentTokenCount: 30, candidatesTokenCount: 20, thoughtsTokenCount: 50 })).toEqual({
      inputTokens: 70,
      outputTokens: 70,
      cacheReadTokens: 30,
      cacheWriteTokens: 0,
    });
  });
});

describe('translating a request', () => {
  const calls: Message = {
    role: 'assistant',
    parts: [
      { type: 'thinking', text: 'secret thoughts', thoughtSignature: 'th' },
      { type: 'tool_use', id: 'gemini_call_1', name: 'f', input: { x: 1 }, thoughtSignature: 'sig' },
      { type: 'tool_use', id: 'gemini_call_2', name: 'f', input: { x: 2 } },
    ],
  };
  const results: Message = {
    role: 'user',
    parts: [
      { type: 'tool_result', toolUseId: 'gemini_call_1', content: [{ type: 'text', text: 'one' }], isError: false },
      { type: 'tool_result', toolUseId: 'gemini_call_2', content: [{ type: 'text', text: 'two' }, { type: 'image', mediaType: 'image/png', data: 'iVBO' }], isError: false },
    ],
  };

  it('sends signatures back on their parts, never thought text, local ids never, all results in one user turn', () => {
    const params = toGeminiParams(request({ model: 'gemini-3.8-flash', messages: [userText('go'), calls, results] }));
    expect(params.contents).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [{ text: '', thoughtSignature: 'th' }, { functionCall: { name: 'f', args: { x: 1 } }, thoughtSignature: 'sig' }, { functionCall: { name: 'f', args: { x: 2 } } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'f', response: { output: 'one' } } },
          { functionResponse: { name: 'f', response: { output: 'two\n[image: sent after the function responses]' } } },
          { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
        ],
      },
    ]);
  });

  it('gives an unsigned function-call turn the placeholder for Gemini 3, not for Gemini 2.5', () => {
    const foreign: Message = { role: 'assistant', parts: [{ type: 'tool_use', id: 'call_9', name: 'f', input: {} }] };
    const reply: Message = { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'call_9', content: [{ type: 'text', text: 'ok' }], isError: false }] };
    const firstCall = (model: string) => toGeminiParams(request({ model, messages: [userText('go'), foreign, reply] })).contents;
    expect(firstCall('gemini-3.8-flash')).toMatchObject([{}, { parts: [{ functionCall: { id: 'call_9' }, thoughtSignature: PLACEHOLDER_THOUGHT_SIGNATURE }] }, {}]);
    expect(JSON.stringify(firstCall('gemini-2.5-flash'))).not.toContain('thoughtSignature');
  });
});
