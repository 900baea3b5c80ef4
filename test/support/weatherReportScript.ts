// The model's side of examples/weather-report, used to (re)record its cassette.jsonl against the fake
// model server: the commander asks the worker for the report; the worker geocodes Lyon, fetches its
// forecast with the coordinates it got (both from the example's MCP server and its offline data),
// writes report.md from the figures it received, and reports back.

import { callAgent, lastToolResult, taskComplete, toolCall, turnScript, type TurnScript } from './turnScript.js';

interface Daily {
  daily: { time: string[]; temperature_2m_max: number[]; precipitation_sum: number[] };
}

function reportOf(forecast: Daily): string {
  const { time, temperature_2m_max: max, precipitation_sum: rain } = forecast.daily;
  const rows = time.map((day, i) => `| ${day} | ${max[i]} °C | ${rain[i]} mm |`);
  return ['# Lyon: 3-day weather report', '', '| day | max temperature | precipitation |', '|---|---|---|', ...rows, ''].join('\n');
}

export function weatherReportScript(): TurnScript {
  let report = '';
  return turnScript({
    'commander of task "report"': [
      callAgent('worker', 'Write a 3-day weather report for Lyon in metric units to report.md: geocode Lyon, get its 3-day forecast, and write a table of each day\'s maximum temperature (°C) and precipitation (mm).'),
      (req) => {
        const reply = JSON.parse(lastToolResult(req)) as { answer: string };
        return taskComplete(`Wrote report.md, a 3-day metric weather report for Lyon. Worker's report: ${reply.answer}`);
      },
    ],
    'worker agent of task "report"': [
      toolCall('mcp_weather_geocode', { name: 'Lyon' }),
      (req) => {
        const place = (JSON.parse(lastToolResult(req)) as { results: { latitude: number; longitude: number }[] }).results[0]!;
        return toolCall('mcp_weather_forecast', { latitude: place.latitude, longitude: place.longitude, days: 3 });
      },
      (req) => {
        report = reportOf(JSON.parse(lastToolResult(req)) as Daily);
        return toolCall('builtins_files_write', { path: 'report.md', content: report });
      },
      () => ({ text: `Done. report.md holds the 3-day forecast for Lyon:\n${report}` }),
    ],
  });
}
