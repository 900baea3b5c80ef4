# Task-level tools and the dynamic worker: no agent block is needed for ordinary work. One
# predefined agent (pricing_expert) sits alongside the worker for the ambiguous cases.

agent "pricing_expert" {
  model       = models.offline.claude_opus_5_5
  personality = <<-EOT
    You are a pricing analyst. Given a product listing, you decide which SKU it is and whether the
    price is comparable (same pack size, same currency). You answer briefly and say how sure you are.
  EOT
  reasoning = "high"
}

mission "pricing_research" {
  description  = "Compare competitor prices for a product"
  max_parallel = 2

  commander {
    model = models.offline.claude_sonnet_5_5
  }

  # Defaults for every task's worker: a cheaper model and the clock.
  agent_defaults {
    model     = models.offline.claude_sonnet_5_5
    reasoning = "low"
    tools     = [builtins.utils.current_time]
  }

  input "product" {
    type        = "string"
    description = "The product to price, e.g. 'Aeropress Go coffee maker'"
    default     = "Aeropress Go coffee maker"
  }

  input "sites" {
    type        = "list"
    description = "Shop URLs to check"
    default     = ["https://www.example-shop.com", "https://www.example-market.com"]
  }

  task "gather" {
    objective = "Collect the current price of ${inputs.product} on each shop in the mission inputs. Save the raw findings to prices.json. Ask the pricing expert about listings whose SKU is ambiguous."
    tools     = [toolsets.browsing, toolsets.data_io]
    agents    = [agents.pricing_expert]
    model     = models.offline.claude_haiku_4_5
  }

  task "summarize" {
    depends_on = [tasks.gather]
    objective  = "Read prices.json and write a short comparison of ${inputs.product} prices to report.md."
    tools      = [toolsets.data_io]
  }
}
