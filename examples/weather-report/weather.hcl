# Tools with inputs and mission inputs: the worker geocodes the city, fetches its forecast and writes
# the report. Runs offline: the model's side is replayed from cassette.jsonl (recorded for the default
# inputs: Lyon, 3 days, metric), and the two tools come from weather-server.mjs, a small MCP server
# that answers from weather-data.json beside it (illustrative data, not a live forecast). The MCP
# server, the scheduler and the database run for real; nothing reaches the network.
#
#   npx squadron run examples/weather-report
#
# Other inputs (-i city=Lisbon) differ from the recording and stop with one line saying so. README.md
# shows how to use a real model and the live Open-Meteo API (custom tools over builtins.http.get).

variable "units" {
  description = "metric or imperial"
  default     = "metric"
}

model "offline" {
  provider = "replay"
  cassette = "./cassette.jsonl"
}

mcp "weather" {
  description = "Geocoding and daily forecasts (offline data in weather-data.json)"
  command     = "node"
  args        = ["weather-server.mjs"]
}

mission "weather_report" {
  commander {
    model = models.offline.claude_haiku_4_5
  }

  input "city" {
    type        = "string"
    description = "City to report on"
    default     = "Lyon"
  }

  input "days" {
    type    = "integer"
    default = 3
  }

  task "report" {
    objective = "Write a ${inputs.days}-day weather report for ${inputs.city} in ${vars.units} units to report.md."
    tools     = [mcp.weather.geocode, mcp.weather.forecast, builtins.files.write]
  }
}
