// The weather example's two tools as an MCP server over stdio, answering from weather-data.json beside
// it (nothing leaves the process): `geocode` finds a place's coordinates, `forecast` gives its daily
// maximum temperature and precipitation, in the shape of Open-Meteo's answers. weather.hcl starts it
// with `node weather-server.mjs`; README.md shows the same tools against the real Open-Meteo API.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const data = JSON.parse(readFileSync(join(import.meta.dirname, 'weather-data.json'), 'utf8'));
const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] });
const failure = (message) => ({ content: [{ type: 'text', text: message }], isError: true });
const known = data.places.map((p) => p.name).join(', ');

const server = new McpServer({ name: 'weather', version: '1.0.0' });

server.registerTool('geocode', {
  description: "Find the latitude and longitude of a place, e.g. 'Lyon'",
  inputSchema: { name: z.string().describe("Place name, e.g. 'Lyon'") },
  annotations: { readOnlyHint: true },
}, async ({ name }) => {
  const place = data.places.find((p) => p.name.toLowerCase() === name.trim().toLowerCase());
  return place ? text({ results: [place] }) : failure(`No place named ${name} in the offline data (it has: ${known}).`);
});

server.registerTool('forecast', {
  description: 'Daily forecast for a location: maximum temperature and precipitation per day',
  inputSchema: {
    latitude: z.number().describe('Latitude in degrees'),
    longitude: z.number().describe('Longitude in degrees'),
    days: z.number().int().min(1).max(7).describe('Number of days (1-7)').optional(),
  },
  annotations: { readOnlyHint: true },
}, async ({ latitude, longitude, days = 3 }) => {
  const found = data.forecasts[`${latitude},${longitude}`];
  if (!found) return failure(`No forecast for ${latitude},${longitude} in the offline data (geocode one of: ${known}).`);
  const daily = Object.fromEntries(Object.entries(found.daily).map(([k, v]) => [k, v.slice(0, days)]));
  return text({ latitude, longitude, daily_units: found.daily_units, daily });
});

await server.connect(new StdioServerTransport());
