/**
 * The expected answers of the pipeline matrix: one row per failure shape, shared by every
 * framework and every mode. The tool bodies are in apps/shapes.cjs, under the same names.
 * Every framework shows every shape: for `returned_error`, each driver returns its framework's
 * own error result (MCP `isError`, LangChain `ToolMessage { status: 'error' }`, Mastra
 * `{ error: true, message }`, a Strands `ToolResultBlock` with status `error`); the AI SDK, OpenAI
 * Agents and Genkit have none and take any value, so their drivers return `{ error }`, the common
 * convention.
 */

export const FRAMEWORKS = [
  'ai-sdk-v6',
  'ai-sdk-v7',
  'ai-sdk-mcp',
  'langchain',
  'mcp',
  'openai-agents',
  'mastra',
  'genkit',
  'strands',
] as const;
export type Framework = (typeof FRAMEWORKS)[number];

export interface ExpectedError {
  'error.type': string;
  'tool.error_kind': string;
  'tool.error_retryable': boolean;
  'tool.error_executed': boolean;
}

export interface Shape {
  /** What the tool does, as apps/shapes.cjs writes it. */
  readonly does: string;
  /** The error attributes of its span (status ERROR), or `undefined`: none, and status not ERROR. */
  readonly expected: ExpectedError | undefined;
}

function failed(type: string, kind: string, retryable: boolean, executed = true): ExpectedError {
  return {
    'error.type': type,
    'tool.error_kind': kind,
    'tool.error_retryable': retryable,
    'tool.error_executed': executed,
  };
}

export const SHAPES = {
  fetch_500: {
    does: "fetch gets a 500, then throw new Error('upstream failed') (only the HTTP child span knows the status)",
    expected: failed('500', 'transient', true),
  },
  axios_503: {
    does: 'axios gets a 503 and its AxiosError is thrown as is',
    expected: failed('503', 'transient', true),
  },
  fetch_429_retry_after: {
    does: "fetch gets a 429 with Retry-After: 7, then throw new Error('upstream failed')",
    expected: failed('429', 'rate_limit', true),
  },
  axios_429_retry_after: {
    does: "axios (node:http) gets a 429 with Retry-After: 7, then throw new Error('upstream failed')",
    expected: failed('429', 'rate_limit', true),
  },
  fetch_429: {
    // Nothing of the response reaches the span but its status: a 429 with no quota evidence is a rate limit.
    does: "fetch gets a 429 without Retry-After, then throw new Error('upstream failed')",
    expected: failed('429', 'rate_limit', true),
  },
  timeout: {
    does: 'fetch of an endpoint that never answers, with AbortSignal.timeout(100)',
    expected: failed('timeout', 'timeout', true),
  },
  refused: {
    does: 'fetch of a port nothing listens on',
    expected: failed('ECONNREFUSED', 'network', true),
  },
  returned_error: {
    does: "returns the framework's own error result, text 'the file is locked by another process'",
    expected: failed('tool_error', 'tool_error', false),
  },
  success: { does: 'fetch gets a 200 and returns its JSON', expected: undefined },
} satisfies Record<string, Shape>;
export type ShapeName = keyof typeof SHAPES;
