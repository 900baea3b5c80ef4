// Large tool results: the interception point, and the tools that read a stored result back.

export { offloadResult, payloadOf, type ResultScope } from './offload.js';
export { resultTools, RESULT_READ, RESULT_SEARCH } from './readTools.js';
export { estimateTokens } from './size.js';
export { addResultTools, isResultReader, revealResultTools } from './sessionTools.js';
