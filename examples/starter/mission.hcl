# A starter project: one model, one toolset, one mission of two tasks. Edit the objectives, add
# tools and tasks, and check your changes with `squadron validate`. See README.md for what to do next.

variable "anthropic_api_key" {
  description = "Anthropic API key (set SQUADRON_VAR_anthropic_api_key or pass --var)"
  secret      = true
}

model "anthropic" {
  provider = "anthropic"
  api_key  = vars.anthropic_api_key
}

# Tools a task may hold, grouped under a name; every built-in tool: squadron docs builtins
toolset "research" {
  description = "Fetch web pages and keep notes in the run's workspace"
  tools       = [builtins.http.get, builtins.files.write]
}

mission "starter" {
  description = "Gather facts about a topic, then summarize them."

  commander {
    model = models.anthropic.claude_sonnet_4_6
  }

  # Each task's worker (the agent holding the task's tools) uses this cheaper model.
  agent_defaults {
    model = models.anthropic.claude_haiku_4_5
  }

  input "topic" {
    type        = "string"
    description = "What the facts are about"
    default     = "tide pools"
  }

  task "gather" {
    objective = "Collect three facts about ${inputs.topic} and write them to notes/facts.md as a Markdown list."
    tools     = [toolsets.research]
  }

  task "summarize" {
    depends_on = [tasks.gather]
    objective  = "Read notes/facts.md and write a two-sentence summary for a newsletter."
    tools      = [builtins.files.read]

    output {
      field "summary" {
        type        = "string"
        description = "The two-sentence summary"
        required    = true
      }
    }
  }
}
