// The provider a starter project is written for (`squadron init --provider`): examples/starter is
// written for Anthropic; for another provider its model block, key variable and model references
// are rewritten to that provider's, in mission.hcl and README.md alike.

export interface StarterProvider {
  /** The block name and `provider` value. */
  name: string;
  label: string;
  keyExample: string;
  commander: string;
  worker: string;
}

export const STARTER_PROVIDERS: readonly StarterProvider[] = [
  { name: 'anthropic', label: 'Anthropic', keyExample: 'sk-ant-…', commander: 'claude_sonnet_4_6', worker: 'claude_haiku_4_5' },
  { name: 'openai', label: 'OpenAI', keyExample: 'sk-…', commander: 'gpt_5', worker: 'gpt_5_mini' },
  { name: 'gemini', label: 'Gemini', keyExample: 'AIza…', commander: 'gemini_3_flash_preview', worker: 'gemini_2_5_flash_lite' },
];

const WRITTEN_FOR = STARTER_PROVIDERS[0]!;

/** The starter's text (mission.hcl or README.md) for `provider`. */
export function starterFor(text: string, provider: StarterProvider): string {
  if (provider.name === WRITTEN_FOR.name) return text;
  const from = WRITTEN_FOR;
  return text
    .replaceAll(`models.${from.name}.${from.commander}`, `models.${provider.name}.${provider.commander}`)
    .replaceAll(`models.${from.name}.${from.worker}`, `models.${provider.name}.${provider.worker}`)
    .replaceAll(`model "${from.name}"`, `model "${provider.name}"`)
    .replaceAll(`provider = "${from.name}"`, `provider = "${provider.name}"`)
    .replaceAll(`${from.name}_api_key`, `${provider.name}_api_key`)
    .replaceAll(`${from.label} API key`, `${provider.label} API key`)
    .replaceAll(from.keyExample, provider.keyExample);
}
