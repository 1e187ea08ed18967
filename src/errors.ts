import { TOOL_EXECUTION_ERROR_BRAND } from './classify/classify-error';
import { isError } from './classify/safe';
import type { ToolErrorClassification } from './classify/classification';
import { TOOL_ERROR_KIND_MEANINGS, isToolErrorKind, type ToolErrorKind } from './classify/kinds';

/**
 * Common `error.type` values a tool author can state. HTTP statuses follow the HTTP
 * instrumentations; `ENOTFOUND` is Node's code for an unknown host (the ADK plan's "UnknownHost").
 */
export const ToolErrorType = Object.freeze({
  TIMEOUT: 'timeout',
  BAD_REQUEST: '400',
  UNAUTHORIZED: '401',
  FORBIDDEN: '403',
  NOT_FOUND: '404',
  REQUEST_TIMEOUT: '408',
  TOO_MANY_REQUESTS: '429',
  INTERNAL_SERVER_ERROR: '500',
  BAD_GATEWAY: '502',
  SERVICE_UNAVAILABLE: '503',
  GATEWAY_TIMEOUT: '504',
  UNKNOWN_HOST: 'ENOTFOUND',
  TOOL_ERROR: 'tool_error',
} as const);
export type ToolErrorType = (typeof ToolErrorType)[keyof typeof ToolErrorType];

export interface ToolExecutionErrorOptions {
  /** The `tool.error_kind`; derived from `errorType` or `cause` when left out. */
  kind?: ToolErrorKind;
  /** The `error.type`; derived from `kind` or `cause` when left out. */
  errorType?: ToolErrorType | string;
  cause?: unknown;
  toolName?: string;
  /** The tool's input. Kept on the error for the author; never recorded on spans unless capture is on. */
  input?: unknown;
}

/**
 * Thrown by a tool to state what went wrong. The classifier trusts it before any other evidence.
 */
export class ToolExecutionError extends Error {
  override readonly name = 'ToolExecutionError';
  readonly kind?: ToolErrorKind;
  readonly errorType?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;

  constructor(message: string, options: ToolExecutionErrorOptions = {}) {
    if (options.kind !== undefined && !isToolErrorKind(options.kind)) {
      throw new TypeError(
        `ToolExecutionError: unknown kind ${JSON.stringify(options.kind)}; expected one of ${Object.keys(TOOL_ERROR_KIND_MEANINGS).join(', ')}`,
      );
    }
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.kind !== undefined) this.kind = options.kind;
    if (options.errorType !== undefined) this.errorType = options.errorType;
    if (options.toolName !== undefined) this.toolName = options.toolName;
    if (options.input !== undefined) this.input = options.input;
    this.timestamp = Date.now();
    Object.defineProperty(this, TOOL_EXECUTION_ERROR_BRAND, { value: true });
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      kind: this.kind,
      errorType: this.errorType,
      toolName: this.toolName,
      input: this.input,
      timestamp: new Date(this.timestamp).toISOString(),
      cause: isError(this.cause) ? { name: this.cause.name, message: this.cause.message } : this.cause,
    };
  }
}

/** What the model should do next, by kind: the retry advice in the model-facing text. */
const MODEL_ADVICE: Readonly<Record<ToolErrorKind, string>> = Object.freeze({
  unknown_tool: 'This tool does not exist. Use only the tools you were given.',
  invalid_input: 'The arguments were invalid. Fix them to match the tool schema and call again.',
  not_permitted: 'This call is not allowed. Do not retry it; continue without it or ask the user.',
  canceled: 'The call was canceled. Do not retry unless the user asks.',
  timeout: 'The tool timed out. You may retry once; otherwise continue without it.',
  network: 'The tool could not reach its service. You may retry once; otherwise continue without it.',
  rate_limit: 'The service is rate limited. Wait before retrying.',
  quota: 'The service quota is exhausted. Do not retry; continue without this tool.',
  auth: 'The tool is not authorised. Do not retry; tell the user the tool needs credentials.',
  transient: 'The service failed temporarily. You may retry once.',
  permanent:
    'The service rejected the request. Do not retry the same call; change the request or continue without it.',
  tool_error: 'The tool reported an error. Do not retry the same call; try another approach.',
  internal: 'The tool failed. Do not retry; continue without it.',
});

/**
 * The text to hand back to the model when a tool failed: recognisable ("Tool Execution Failed"),
 * typed (kind and `error.type`) and actionable (retry advice). Put the message through your own
 * redaction first if it may hold secrets.
 */
export function formatToolErrorForModel(
  toolName: string,
  classification: ToolErrorClassification,
  message?: string,
): string {
  const lines = [
    'Tool Execution Failed',
    `Tool: ${toolName}`,
    `Error Type: ${classification.errorType}`,
    `Kind: ${classification.kind}`,
  ];
  if (message) lines.push(`Message: ${message}`);
  let advice = MODEL_ADVICE[classification.kind];
  if (classification.kind === 'rate_limit' && classification.retryAfterMs !== undefined) {
    advice = `The service is rate limited. Wait ${Math.ceil(classification.retryAfterMs / 1000)}s before retrying.`;
  }
  lines.push('', advice);
  return lines.join('\n');
}
