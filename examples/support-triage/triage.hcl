# Routing and output schemas: the triage task classifies a ticket and routes to exactly one
# follow-up; the follow-ups submit structured outputs; the reply task is started by send_to.
# Runs offline: the model's side is replayed from cassette.jsonl (recorded for the default ticket,
# a question, so the router picks answer_question and no tool reaches the network); the router, the
# skills, the output checks, the scheduler and the database run for real.
#
#   npx squadron run examples/support-triage
#
# Another ticket (-i ticket="...") differs from the recording and stops with one line saying so. To
# use a real model instead, replace the model block with
#   variable "openai_api_key" {
#     secret = true
#   }
#   model "openai" {
#     provider = "openai"
#     api_key  = vars.openai_api_key
#   }
# and change models.offline.* to models.openai.* below; a bug report then routes to reproduce_bug,
# whose worker fetches the public status API with builtins.http.get.

model "offline" {
  provider = "replay"
  cassette = "./cassette.jsonl"
}

skills_dir = "./skills"

skill "triage_rules" {
  description  = "How to classify support tickets"
  instructions = load("triage-rules.md")
}

mission "support_triage" {
  commander {
    model = models.offline.gpt_5
  }

  agent_defaults {
    model  = models.offline.gpt_5_mini
    skills = [skills.tone-guide]
  }

  input "ticket" {
    type        = "string"
    description = "The text of the support ticket"
    default     = "Hi! How do I download all of last year's invoices at once? I can only find them one by one."
  }

  task "triage" {
    objective = "Classify this ticket as bug, question or feature request: ${inputs.ticket}"
    tools     = []
    skills    = [skills.triage_rules]

    output = {
      category = string("bug, question or feature", true)
      summary  = string("One-sentence summary", true)
    }

    router {
      route {
        target    = tasks.reproduce_bug
        condition = "the ticket reports a bug"
      }
      route {
        target    = tasks.answer_question
        condition = "the ticket asks a question or requests a feature"
      }
    }
  }

  task "reproduce_bug" {
    objective = "Try to reproduce the bug described in the ticket using the public status API."
    tools     = [builtins.http.get]
    send_to   = [tasks.reply]

    output {
      field "reproduced" {
        type        = "boolean"
        description = "Whether the bug was reproduced"
        required    = true
      }
      field "steps" {
        type        = "array"
        description = "Steps that reproduce it"
      }
    }
  }

  task "answer_question" {
    objective = "Draft an answer to the question in the ticket."
    tools     = []
    send_to   = [tasks.reply]
  }

  task "reply" {
    objective = "Write the reply to the customer from the previous task's findings."
    tools     = []

    output = {
      reply = string("The message to send", true)
    }
  }
}
