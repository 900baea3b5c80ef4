// The catalog of built-in tools the loader knows: refs, descriptions, input schemas and whether a
// call may be safely re-run after an interruption. The loader uses it to resolve `builtins.*` refs
// and to check custom tool fields; runtime/tools attaches the implementations to these entries.

export interface BuiltinToolInfo {
  /** `builtins.<namespace>.<name>` */
  ref: string;
  namespace: 'http' | 'utils' | 'files' | 'human' | 'dataset';
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  idempotent: boolean;
}

const headers = {
  type: 'object',
  description: 'HTTP request headers as name/value strings.',
  additionalProperties: { type: 'string' },
};

const url = { type: 'string', description: 'Absolute http:// or https:// URL.' };

const body = {
  description: 'Request body: an object (sent as JSON or form fields) or a string (sent as is).',
  anyOf: [{ type: 'object' }, { type: 'string' }],
};

const contentType = {
  type: 'string',
  enum: ['json', 'form', 'text'],
  description: 'How to encode the body: json (default), form (object only) or text (string only).',
};

function httpWithBody(method: 'post' | 'put' | 'patch'): BuiltinToolInfo {
  return {
    ref: `builtins.http.${method}`,
    namespace: 'http',
    name: method,
    description: `Send an HTTP ${method.toUpperCase()} request and return the status, headers and body.`,
    inputSchema: {
      type: 'object',
      properties: { url, body, content_type: contentType, headers },
      required: ['url'],
      additionalProperties: false,
    },
    idempotent: false,
  };
}

export const BUILTIN_TOOLS: readonly BuiltinToolInfo[] = [
  {
    ref: 'builtins.http.get',
    namespace: 'http',
    name: 'get',
    description: 'Fetch a URL with HTTP GET and return the status, headers and body.',
    inputSchema: {
      type: 'object',
      properties: { url, headers },
      required: ['url'],
      additionalProperties: false,
    },
    idempotent: true,
  },
  httpWithBody('post'),
  httpWithBody('put'),
  httpWithBody('patch'),
  {
    ref: 'builtins.http.delete',
    namespace: 'http',
    name: 'delete',
    description: 'Send an HTTP DELETE request and return the status and body.',
    inputSchema: {
      type: 'object',
      properties: { url, headers },
      required: ['url'],
      additionalProperties: false,
    },
    idempotent: false,
  },
  {
    ref: 'builtins.utils.current_time',
    namespace: 'utils',
    name: 'current_time',
    description: 'Return the current date and time (ISO 8601) in a time zone (IANA name, default UTC).',
    inputSchema: {
      type: 'object',
      properties: { timezone: { type: 'string', description: 'IANA time zone, e.g. Europe/Paris. Default UTC.' } },
      additionalProperties: false,
    },
    idempotent: true,
  },
  {
    ref: 'builtins.utils.sleep',
    namespace: 'utils',
    name: 'sleep',
    description: 'Wait for a number of seconds (at most 60) before continuing.',
    inputSchema: {
      type: 'object',
      properties: { seconds: { type: 'number', exclusiveMinimum: 0, maximum: 60, description: 'Seconds to wait (0 < s ≤ 60).' } },
      required: ['seconds'],
      additionalProperties: false,
    },
    idempotent: true,
  },
  {
    ref: 'builtins.files.read',
    namespace: 'files',
    name: 'read',
    description: "Read a UTF-8 text file from the run's workspace directory.",
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path relative to the workspace directory.' },
        max_bytes: { type: 'integer', minimum: 1, description: 'Read at most this many bytes (default 1 MiB).' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    idempotent: true,
  },
  {
    ref: 'builtins.files.write',
    namespace: 'files',
    name: 'write',
    description: "Write (or append to) a UTF-8 text file in the run's workspace directory, creating folders as needed.",
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path relative to the workspace directory.' },
        content: { type: 'string', description: 'Text to write.' },
        append: { type: 'boolean', description: 'Append instead of replacing the file (default false).' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    idempotent: false,
  },
  {
    ref: 'builtins.files.list',
    namespace: 'files',
    name: 'list',
    description: "List files and folders in the run's workspace directory.",
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Folder relative to the workspace directory (default ".").' },
        recursive: { type: 'boolean', description: 'Include sub-folders (default false).' },
      },
      additionalProperties: false,
    },
    idempotent: true,
  },
  {
    ref: 'builtins.human.ask',
    namespace: 'human',
    name: 'ask',
    description:
      'Ask the human operator a question and wait for the answer. Give choices to have them pick one (or several with multi_select). ' +
      'Use it for decisions and facts only a person can give, not for progress updates.',
    inputSchema: {
      type: 'object',
      properties: {
        question: { type: 'string', description: 'The question, complete on its own (the operator may not see the conversation).' },
        choices: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Answers to choose from (optional; without them the answer is free text).' },
        multi_select: { type: 'boolean', description: 'With choices: the operator may pick several (default false).' },
      },
      required: ['question'],
      additionalProperties: false,
    },
    // Asking again is safe: an answer already given is found by the call's id.
    idempotent: true,
  },
  // The Go original's dataset tools: fill a dataset of the mission (one without items or bind_to)
  // while the run goes; a task iterating over it later walks what was set (runtime/iteration/filledDatasets.ts).
  {
    ref: 'builtins.dataset.set',
    namespace: 'dataset',
    name: 'set',
    description:
      "Set or append to the items of one of the mission's datasets filled at run time. Only use it when your task says to fill a dataset. " +
      'Replaces every item unless append is true. Each item must match the dataset schema. Refused once a task has started iterating over the dataset.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The dataset to set.' },
        items: { type: 'array', items: { type: 'object' }, description: "The items, each an object matching the dataset's schema." },
        append: { type: 'boolean', description: 'Add the items after the existing ones instead of replacing them (default false).' },
      },
      required: ['name', 'items'],
      additionalProperties: false,
    },
    // Setting the same items again gives the same dataset; an append is not, so it is not re-run blind.
    idempotent: false,
  },
  {
    ref: 'builtins.dataset.sample',
    namespace: 'dataset',
    name: 'sample',
    description: "Return the first items of one of the mission's datasets, to see what it holds.",
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The dataset to read.' },
        count: { type: 'integer', minimum: 1, description: 'How many items (default 5).' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    idempotent: true,
  },
  {
    ref: 'builtins.dataset.count',
    namespace: 'dataset',
    name: 'count',
    description: "Return how many items one of the mission's datasets holds.",
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The dataset to count.' } },
      required: ['name'],
      additionalProperties: false,
    },
    idempotent: true,
  },
];

export const BUILTIN_NAMESPACES = ['http', 'utils', 'files', 'human', 'dataset'] as const;

export function builtinTool(ref: string): BuiltinToolInfo | undefined {
  return BUILTIN_TOOLS.find((t) => t.ref === ref);
}

export function builtinToolsIn(namespace: string): BuiltinToolInfo[] {
  return BUILTIN_TOOLS.filter((t) => t.namespace === namespace);
}
