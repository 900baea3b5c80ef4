# Named tool groups. They expand in place wherever they are listed (tasks, agents, agent_defaults).

# The shops, offline: a local MCP server answering from shops-data.json. With real shops, list
# builtins.http.get here instead (README.md).
mcp "shops" {
  description = "Product search in the two shops (offline data in shops-data.json)"
  command     = "node"
  args        = ["shops-server.mjs"]
}

toolset "browsing" {
  description = "Look products up in the shops"
  tools       = [mcp.shops.search_shop]
}

toolset "data_io" {
  description = "Read and write files in the run's workspace"
  tools       = [builtins.files.read, builtins.files.write, builtins.files.list]
}
