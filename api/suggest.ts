// "Did you mean": the nearest of some names to what was typed, by the rule config's own hints use.

export { closest } from '../config/suggest.js';
