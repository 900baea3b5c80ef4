# Models for the pricing research mission. Set the key with
#   SQUADRON_VAR_anthropic_api_key=sk-... squadron validate examples/pricing-research

variable "anthropic_api_key" {
  description = "Anthropic API key"
  secret      = true
}

model "anthropic" {
  provider = "anthropic"
  api_key  = vars.anthropic_api_key
}
