# Named tool groups. They expand in place wherever they are listed (tasks, agents, agent_defaults).

toolset "browsing" {
  description = "Fetch web pages and APIs"
  tools       = [builtins.http.get]
}

toolset "data_io" {
  description = "Read and write files in the run's workspace"
  tools       = [builtins.files.read, builtins.files.write, builtins.files.list]
}
