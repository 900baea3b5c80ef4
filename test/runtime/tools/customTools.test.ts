import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CustomTool, FieldSchema, VariableValue } from '../../../config/graph.js';
import type { Expression } from '../../../config/hcl/ast.js';
import { parseHcl } from '../../../config/hcl/index.js';
import { customToolSpec } from '../../../runtime/tools/custom.js';
import { fieldsToJsonSchema } from '../../../runtime/tools/fieldSchema.js';
import { textOf, toolContext } from './toolContext.js';
import { closeServer, listenLocal } from '../../support/localServer.js';

/** The test server listens on 127.0.0.1, which the host policy refuses unless allowed. */
const LOCAL = { http: { allowedHosts: ['127.0.0.1'] } };

let server: http.Server;
let base: string;
const received: { method: string; url: string; contentType: string | undefined; authorization: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], authorization: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`sunny in ${decodeURIComponent((req.url ?? '').split('city=')[1] ?? '?')}`);
    });
  });
  base = await listenLocal(server);
});

afterAll(async () => {
  await closeServer(server);
});

/** Field expressions as the loader would keep them: the attributes of a parsed HCL body. */
function fieldsFrom(hcl: string): Record<string, Expression> {
  const { file, diagnostics } = parseHcl(hcl, 'tools.hcl');
  expect(diagnostics).toEqual([]);
  return Object.fromEntries(file.body.attributes.map((a) => [a.name, a.expr]));
}

const field = (name: string, type: FieldSchema['type'], required: boolean, extra: Partial<FieldSchema> = {}): FieldSchema => ({
  name,
  type,
  description: `the ${name}`,
  required,
  ...extra,
});

function customTool(overrides: Partial<CustomTool> & Pick<CustomTool, 'fields'>): CustomTool {
  return {
    name: 'weather',
    ref: 'tools.weather',
    implements: 'builtins.http.get',
    description: 'Current weather for a city.',
    inputs: [field('city', 'string', true), field('units', 'string', false)],
    idempotent: true,
    location: { file: 'tools.hcl', line: 1, column: 1 },
    ...overrides,
  };
}

describe('fieldsToJsonSchema', () => {
  it('maps fields, nested objects, arrays and maps in declaration order', () => {
    const schema = fieldsToJsonSchema([
      field('city', 'string', true),
      field('days', 'integer', false),
      field('tags', 'array', false, { items: field('', 'string', false, { description: '' }) }),
      field('where', 'object', false, { properties: [field('lat', 'number', true), field('lon', 'number', true)] }),
      field('labels', 'map', false),
      field('verbose', 'boolean', false),
    ]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'the city' },
        days: { type: 'integer', description: 'the days' },
        tags: { type: 'array', items: { type: 'string' }, description: 'the tags' },
        where: {
          type: 'object',
          properties: { lat: { type: 'number', description: 'the lat' }, lon: { type: 'number', description: 'the lon' } },
          additionalProperties: false,
          required: ['lat', 'lon'],
          description: 'the where',
        },
        labels: { type: 'object', additionalProperties: true, description: 'the labels' },
        verbose: { type: 'boolean', description: 'the verbose' },
      },
      additionalProperties: false,
      required: ['city'],
    });
  });
});

describe('customToolSpec', () => {
  it('describes itself from the block', () => {
    const spec = customToolSpec(customTool({ fields: fieldsFrom(`url = "${base}/w"`) }));
    expect(spec).toMatchObject({ ref: 'tools.weather', apiName: 'tools_weather', group: 'tools', source: 'custom', idempotent: true, description: 'Current weather for a city.' });
    expect(spec.inputSchema).toMatchObject({ required: ['city'], additionalProperties: false });
  });

  it('falls back to the implemented tool description and keeps the block idempotency', () => {
    const spec = customToolSpec(customTool({ description: '', idempotent: false, fields: fieldsFrom(`url = "${base}/w"`) }));
    expect(spec.description).toBe('Fetch a URL with HTTP GET and return the status, headers and body.');
    expect(spec.idempotent).toBe(false);
  });

  it('evaluates field expressions with the inputs and calls the builtin', async () => {
    const spec = customToolSpec(customTool({ fields: fieldsFrom(`url = "${base}/weather?city=\${inputs.city}"\nheaders = { "X-Units" = "metric" }`) }), LOCAL);
    const r = await spec.execute({ city: 'Paris' }, toolContext());
    expect(r.isError).toBe(false);
    expect(textOf(r)).toMatch(/^HTTP 200 OK/);
    expect(textOf(r)).toContain('sunny in Paris');
    expect(received.at(-1)!.url).toBe('/weather?city=Paris');
  });

  it('reads an absent optional input as null, and drops a field that evaluates to null', async () => {
    const spec = customToolSpec(
      customTool({
        implements: 'builtins.http.post',
        fields: fieldsFrom(`url = "${base}/submit?city=\${inputs.city}"\nbody = inputs.units`),
      }),
      LOCAL,
    );
    const r = await spec.execute({ city: 'Rome' }, toolContext());
    expect(r.isError).toBe(false);
    expect(received.at(-1)).toMatchObject({ method: 'POST', body: '' });
  });

  it('passes objects built from inputs as JSON bodies', async () => {
    const spec = customToolSpec(
      customTool({ implements: 'builtins.http.post', fields: fieldsFrom(`url = "${base}/submit"\nbody = { city = inputs.city, n = 3 }`) }),
      LOCAL,
    );
    await spec.execute({ city: 'Oslo' }, toolContext());
    expect(received.at(-1)).toMatchObject({ contentType: 'application/json', body: '{"city":"Oslo","n":3}' });
  });

  it('validates the model input against the declared inputs', async () => {
    const spec = customToolSpec(customTool({ fields: fieldsFrom(`url = "${base}/w"`) }));
    const r = await spec.execute({ town: 'Paris' }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Invalid input for tools_weather:\n- input: missing required property "city"\n- input: unexpected property "town" (allowed: city, units)');
  });

  it('evaluates fields with the variables as vars, e.g. a bearer token header', async () => {
    const variables: VariableValue[] = [
      { name: 'api_token', value: 'tok-123456', secret: true, source: 'env' },
      { name: 'unset', secret: false, source: 'unset' },
    ];
    const spec = customToolSpec(
      customTool({ fields: fieldsFrom(`url = "${base}/weather?city=\${inputs.city}"\nheaders = { Authorization = "Bearer \${vars.api_token}" }`) }),
      LOCAL,
      variables,
    );
    const r = await spec.execute({ city: 'Lima' }, toolContext());
    expect(r.isError).toBe(false);
    expect(received.at(-1)).toMatchObject({ url: '/weather?city=Lima', authorization: 'Bearer tok-123456' });
  });

  it('has only inputs and vars in scope: other names, and variables without a value, are an error result', async () => {
    for (const hcl of ['url = "${tools.base}/w"', 'url = "${vars.unset}/w"']) {
      const spec = customToolSpec(customTool({ fields: fieldsFrom(hcl) }), {}, [{ name: 'unset', secret: false, source: 'unset' }]);
      const r = await spec.execute({ city: 'Paris' }, toolContext());
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^tools_weather: could not compute the fields of builtins\.http\.get:\n- url \(tools\.hcl:1:\d+\): /);
    }
  });

  it('checks the computed fields against the builtin schema', async () => {
    const spec = customToolSpec(customTool({ inputs: [field('n', 'number', true)], fields: fieldsFrom('url = inputs.n') }));
    const r = await spec.execute({ n: 4 }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('tools_weather: the fields computed from your inputs are not valid for builtins.http.get:\n- input.url: expected string, got integer');
  });
});

describe('a custom tool URL keeps its template', () => {
  const users = (url: string) => customToolSpec(customTool({ inputs: [field('city', 'string', true)], fields: fieldsFrom(`url = ${url}`) }), LOCAL);

  it('encodes an input in the path as one segment: no climbing to another path, no new query', async () => {
    const spec = users(`"${base}/users/\${inputs.city}?format=safe"`);
    for (const [city, path] of [
      ['../../admin/delete_all?x=', '/users/..%2F..%2Fadmin%2Fdelete_all%3Fx%3D?format=safe'],
      ['7?format=evil&role=admin#', '/users/7%3Fformat%3Devil%26role%3Dadmin%23?format=safe'],
      ['São Paulo', '/users/S%C3%A3o%20Paulo?format=safe'],
    ]) {
      const r = await spec.execute({ city }, toolContext());
      expect(r.isError, textOf(r)).toBe(false);
      expect(received.at(-1)!.url).toBe(path);
    }
  });

  it('refuses . and .. as a whole path segment', async () => {
    const r = await users(`"${base}/users/\${inputs.city}/profile"`).execute({ city: '..' }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('".." cannot be a path segment of the URL');
  });

  it('encodes an input in the query as one value, and leaves a urlencode() call as it is', async () => {
    await users(`"${base}/search?q=\${inputs.city}&fixed=1"`).execute({ city: 'a&fixed=2#x' }, toolContext());
    expect(received.at(-1)!.url).toBe('/search?q=a%26fixed%3D2%23x&fixed=1');
    await users(`"${base}/search?q=\${urlencode(inputs.city)}"`).execute({ city: 'a b' }, toolContext());
    expect(received.at(-1)!.url).toBe('/search?q=a+b');
  });

  it('refuses a URL whose origin is not the template\'s (an input in the port)', async () => {
    const r = await customToolSpec(customTool({ fields: fieldsFrom(`url = "${base}\${inputs.city}/x"`) }), LOCAL).execute({ city: '0@evil.example' }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/leaves http:\/\/127\.0\.0\.1:\d+ \(the tool's URL\), so it is refused|not valid|not an absolute URL/);
  });
});
