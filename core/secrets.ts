// The one rule both the config loader (SCH018) and the store's redactor enforce about secret values.

/** Values shorter than this cannot be redacted without shredding ordinary text ("abc" in every word). */
export const MIN_SECRET_LENGTH = 4;
