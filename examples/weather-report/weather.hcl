# Custom tools and inputs: two tools wrap builtins.http.get with their own inputs; the mission's
# inputs feed the objective.

variable "anthropic_api_key" {
  secret = true
}

variable "units" {
  description = "metric or imperial"
  default     = "metric"
}

model "anthropic" {
  provider = "anthropic"
  api_key  = vars.anthropic_api_key
}

tool "geocode" {
  implements  = builtins.http.get
  description = "Find the latitude and longitude of a place"
  inputs = {
    name = string("Place name, e.g. 'Lyon'", true)
  }
  url = "https://geocoding-api.open-meteo.com/v1/search?count=1&name=${inputs.name}"
}

tool "forecast" {
  implements  = builtins.http.get
  description = "Daily forecast for a location"
  inputs {
    field "latitude" {
      type        = "number"
      description = "Latitude in degrees"
      required    = true
    }
    field "longitude" {
      type        = "number"
      description = "Longitude in degrees"
      required    = true
    }
    field "days" {
      type        = "integer"
      description = "Number of days (1-7)"
    }
  }
  url     = "https://api.open-meteo.com/v1/forecast?latitude=${inputs.latitude}&longitude=${inputs.longitude}&daily=temperature_2m_max,precipitation_sum&forecast_days=${inputs.days}"
  headers = { Accept = "application/json" }
}

toolset "weather" {
  tools = [tools.geocode, tools.forecast]
}

mission "weather_report" {
  commander {
    model = models.anthropic.claude_haiku_4_5
  }

  input "city" {
    type        = "string"
    description = "City to report on"
  }

  input "days" {
    type    = "integer"
    default = 3
  }

  task "report" {
    objective   = "Write a ${inputs.days}-day weather report for ${inputs.city} in ${vars.units} units."
    tools       = [toolsets.weather, builtins.files.write]
    always_load = [tools.geocode]
  }
}
