// Keeping secret values out of what a caller prints: the values a load reported (`onSecrets`) become
// a mask for text, and a loaded config's secrets a redactor. Loads the masking code: import lazily.

export { outputMask, secretRedactor } from '../runtime/run/secretRedactor.js';
