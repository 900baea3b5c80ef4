# Progressive tool discovery over a real MCP server, offline. The shop's back office
# (shop-server.mjs, 24 tools over stdio) is more than the worker should receive whole, so the worker
# starts with `search_tools` and `get_tool_schema` only, finds the two tools it needs in its own
# words, loads their schemas and calls them. The model's side is replayed from cassette.jsonl; the
# MCP server, the search, the scheduler and the database run for real.
#
#   npx squadron run examples/tool-discovery
#   npx squadron plan examples/tool-discovery                 # the worker's first request: no shop schemas
#   npx squadron tools examples/tool-discovery --search "give the customer their money back"
#
# To use a real model, replace the model block as in examples/quickstart.

model "offline" {
  provider = "replay"
  cassette = "./cassette.jsonl"
}

mcp "shop" {
  description = "The shop's back office: orders, refunds, products and stock, customers, returns, discounts, sales figures"
  command     = "node"
  args        = ["shop-server.mjs"]
}

mission "support" {
  description = "Put things right for a customer of the shop."

  commander {
    model = models.offline.claude_haiku_4_5
  }

  task "make_it_right" {
    objective = "Ana Silva (ana@example.com) writes that order 1042 arrived broken. Give her her money back in full and leave a note on her customer record saying what happened."
    # 24 tools: above the default discovery_threshold of 16, so the worker discovers them.
    tools = [mcp.shop.all]
  }
}
