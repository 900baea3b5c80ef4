// The providers `squadron init --provider` offers, and how each one rewrites the starter project:
// its model block (and key variable), the commander's and workers' model keys, and the README's
// key line. The starter in examples/starter is written for anthropic; the others are derived.

export interface InitProvider {
  /** Replaces the starter's `variable "anthropic_api_key"` and `model "anthropic"` blocks. */
  blocks: string;
  commander: string;
  worker: string;
  /** The README's key sentence and command line, or undefined to keep the starter's. */
  readme?: { keyNote: string; keyLine: string };
}

const ANTHROPIC_BLOCKS = /variable "anthropic_api_key" \{[\s\S]*?\nmodel "anthropic" \{[\s\S]*?\n\}\n/;

export const INIT_PROVIDERS: Readonly<Record<string, InitProvider>> = {
  anthropic: { blocks: '', commander: 'models.anthropic.claude_sonnet_4_6', worker: 'models.anthropic.claude_haiku_4_5' },
  openai: {
    blocks: `variable "openai_api_key" {
  description = "OpenAI API key (set SQUADRON_VAR_openai_api_key or pass --var)"
  secret      = true
}

# OpenAI's own endpoint speaks the Responses API (api = "responses", the default here).
model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}
`,
    commander: 'models.openai.gpt_5',
    worker: 'models.openai.gpt_5_mini',
    readme: { keyNote: 'its API key comes from the secret variable `openai_api_key`', keyLine: 'export SQUADRON_VAR_openai_api_key=sk-…      # then run it for real' },
  },
  gemini: {
    blocks: `variable "gemini_api_key" {
  description = "Gemini API key (set SQUADRON_VAR_gemini_api_key or pass --var)"
  secret      = true
}

model "gemini" {
  provider = "gemini"
  api_key  = vars.gemini_api_key
}
`,
    commander: 'models.gemini.gemini_3_flash_preview',
    worker: 'models.gemini.gemini_2_5_flash_lite',
    readme: { keyNote: 'its API key comes from the secret variable `gemini_api_key`', keyLine: 'export SQUADRON_VAR_gemini_api_key=AIza…    # then run it for real' },
  },
  ollama: {
    blocks: `# A local Ollama server (base_url defaults to http://127.0.0.1:11434); no key. Any model you
# have pulled is a key: models.ollama.<name>, or an alias for a name with a tag.
model "ollama" {
  provider       = "ollama"
  context_window = 32768
  aliases        = { qwen = "qwen3:8b" }
}
`,
    commander: 'models.ollama.qwen',
    worker: 'models.ollama.qwen',
    readme: { keyNote: 'a local Ollama model: no key needed', keyLine: 'ollama pull qwen3:8b                           # then run it locally' },
  },
};

export const INIT_PROVIDER_NAMES = Object.keys(INIT_PROVIDERS);

/** The starter's mission.hcl for `provider`. */
export function starterMission(text: string, provider: InitProvider): string {
  if (provider.blocks === '') return text;
  return text
    .replace(ANTHROPIC_BLOCKS, provider.blocks)
    .replace('models.anthropic.claude_sonnet_4_6', provider.commander)
    .replace('models.anthropic.claude_haiku_4_5', provider.worker);
}

/** The starter's README.md for `provider`. */
export function starterReadme(text: string, provider: InitProvider): string {
  if (provider.readme === undefined) return text;
  return text
    .replace(/its API key comes from the secret variable `anthropic_api_key`/, provider.readme.keyNote)
    .replace(/export SQUADRON_VAR_anthropic_api_key=\S+\s+# then run it for real/, provider.readme.keyLine);
}
