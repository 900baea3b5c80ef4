# Models for the pricing research mission. Runs offline: every model's side is replayed from
# cassette.jsonl (recorded for the default inputs), and the shops answer from shops-data.json through
# a local MCP server (toolsets.hcl); nothing reaches the network.
#
#   npx squadron run examples/pricing-research
#
# To use a real model, replace this block with
#   variable "anthropic_api_key" {
#     description = "Anthropic API key"
#     secret      = true
#   }
#   model "anthropic" {
#     provider = "anthropic"
#     api_key  = vars.anthropic_api_key
#   }
# and change models.offline.* to models.anthropic.* in mission.hcl (README.md has the live shops).

model "offline" {
  provider = "replay"
  cassette = "./cassette.jsonl"
}
