# Squadron quickstart: runs offline. The model's side of the conversation is replayed from
# cassette.jsonl; the tools, the scheduler and the database run for real, so the worker really writes
# and reads notes/facts.md in the run's workspace.
#
#   npx squadron run examples/quickstart
#
# The cassette holds the answers for the recorded input only (topic = "tide pools"): with another
# topic (-i topic=volcanoes) the first request differs from the recording and the run stops with one
# line saying so. A replayed run calls no model, so it costs $0.
#
# To use a real model instead, replace the model block, e.g.:
#   model "anthropic" {
#     provider = "anthropic"
#     api_key  = vars.anthropic_api_key
#   }
# and point the commander at models.anthropic.claude_sonnet_4_6.

model "offline" {
  provider = "replay"
  cassette = "./cassette.jsonl"
}

mission "quickstart" {
  description = "Write a few facts about a topic, then review them."

  commander {
    model = models.offline.claude_haiku_4_5
  }

  input "topic" {
    type        = "string"
    description = "What the facts are about"
    default     = "tide pools"
  }

  task "research" {
    objective = "Write three short facts about ${inputs.topic} to notes/facts.md, as a Markdown list."
    tools     = [builtins.files.write, builtins.files.list]
  }

  task "review" {
    depends_on = [tasks.research]
    objective  = "Read notes/facts.md and report how many facts it holds, with a one-line headline."
    tools      = [builtins.files.read]

    output {
      field "fact_count" {
        type        = "integer"
        description = "Number of facts in the file"
        required    = true
      }
      field "headline" {
        type        = "string"
        description = "A one-line headline summarizing the facts"
        required    = true
      }
    }
  }
}
