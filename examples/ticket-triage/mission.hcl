# Ticket triage: a task that runs over a dataset, and a task after it that reads the results
# through query_task_output. Runs offline: the model's side is replayed from cassette.jsonl; the
# scheduler, the items as units of work and the database run for real.
#
#   npx squadron run examples/ticket-triage
#   npx squadron inspect <run-id> --task triage --item 3
#
# triage runs one commander per ticket, 6 at a time (max_parallel and concurrency_limit); each
# submits a priority and a team. report never sees the 22 outputs in its prompt: it is shown a digest
# (counts, fields, two examples) and asks query_task_output for the counts and the urgent tickets.
#
# To use a real model, replace the model block (see examples/quickstart) and point the commander at it.

model "offline" {
  provider = "replay"
  cassette = "./cassette.jsonl"
}

mission "ticket_triage" {
  description  = "Triage the support queue, then report what needs attention first."
  max_parallel = 6

  commander {
    model = models.offline.claude_haiku_4_5
  }

  dataset "tickets" {
    description = "Open support tickets"
    items = [
      { id = 1001, subject = "Checkout page down for all EU customers" },
      { id = 1002, subject = "How do I change my invoice address?" },
      { id = 1003, subject = "Password reset email never arrives" },
      { id = 1004, subject = "API returns 500 on every order since 09:00" },
      { id = 1005, subject = "Feature request: dark mode" },
      { id = 1006, subject = "Charged twice for the same subscription" },
      { id = 1007, subject = "Cannot invite a teammate to my workspace" },
      { id = 1008, subject = "Export to CSV cuts off after 1,000 rows" },
      { id = 1009, subject = "Login page down on mobile" },
      { id = 1010, subject = "Typo on the pricing page" },
      { id = 1011, subject = "Webhook deliveries delayed by an hour" },
      { id = 1012, subject = "Refund not received after two weeks" },
      { id = 1013, subject = "2FA codes rejected for all users in one org" },
      { id = 1014, subject = "Dashboard charts load slowly" },
      { id = 1015, subject = "Please add an Italian translation" },
      { id = 1016, subject = "VAT missing on my invoice" },
      { id = 1017, subject = "Data export job stuck at 99%" },
      { id = 1018, subject = "Account locked after too many attempts" },
      { id = 1019, subject = "Status page says all good but search is down" },
      { id = 1020, subject = "Question about the annual plan discount" },
      { id = 1021, subject = "SSO login loops back to the start page" },
      { id = 1022, subject = "Suggestion: keyboard shortcuts" }
    ]
    schema = {
      id      = integer("ticket id", true)
      subject = string("the ticket's subject line", true)
    }
  }

  task "triage" {
    objective = "Triage support ticket ${item.id}: \"${item.subject}\". Set its priority (high when customers cannot pay, log in or use the product at all; low for questions and wishes; normal otherwise) and the team that owns it (billing, accounts, platform or product)."
    tools     = [builtins.files.read]

    output {
      field "priority" {
        type        = "string"
        description = "high, normal or low"
        required    = true
      }
      field "team" {
        type        = "string"
        description = "billing, accounts, platform or product"
        required    = true
      }
    }

    iterator {
      dataset           = datasets.tickets
      parallel          = true
      concurrency_limit = 6
      max_retries       = 1
    }
  }

  task "report" {
    depends_on = [tasks.triage]
    objective  = "How many tickets are high priority, which ones are they, and which team has the most tickets?"
    tools      = [builtins.files.read]

    output {
      field "high_priority" {
        type        = "integer"
        description = "How many tickets are high priority"
        required    = true
      }
      field "busiest_team" {
        type        = "string"
        description = "The team with the most tickets"
        required    = true
      }
    }
  }
}
