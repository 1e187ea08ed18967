import type { ToolErrorKind } from './kinds';

/**
 * Error codes and names that say what happened without an HTTP status: Node system errors,
 * undici, TLS, DOMException names, MCP JSON-RPC codes, and well-known library classes.
 */

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
  '23', // DOMException.TIMEOUT_ERR
  'REQUEST_TIMEOUT', // MCP TypeScript SDK v2 `SdkError`
]);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPROTO',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_SOCKET_CLOSED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CONNECTION_CLOSED', // MCP TypeScript SDK v2 `SdkError`
]);

/** How MCP servers word an unknown tool ("MCP error -32602: Tool x not found"). Linear-time. */
export const UNKNOWN_TOOL_TEXT =
  /\btool\b[^\n]{0,80}\bnot found\b|\bunknown tool\b|\bno such tool\b|\btool not (?:found|registered)\b/i;

const CANCEL_CODES = new Set(['ABORT_ERR', 'ERR_CANCELED', '20' /* DOMException.ABORT_ERR */]);

/** The kind for a Node, undici or TLS error code; `undefined` when the code says nothing. */
export function kindForCode(code: string, message: string | undefined): ToolErrorKind | undefined {
  if (TIMEOUT_CODES.has(code)) return 'timeout';
  if (NETWORK_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return 'network';
  // axios uses ECONNABORTED for its own timeouts ("timeout of 100ms exceeded").
  if (code === 'ECONNABORTED') return message && /timeout/i.test(message) ? 'timeout' : 'network';
  if (CANCEL_CODES.has(code)) return 'canceled';
  return undefined;
}

/** Whether `code` is one of the codes listed above by name (not by prefix): a bounded set. */
export function isListedCode(code: string): boolean {
  return (
    TIMEOUT_CODES.has(code) || NETWORK_CODES.has(code) || CANCEL_CODES.has(code) || code === 'ECONNABORTED'
  );
}

/**
 * MCP / JSON-RPC error codes (`McpError.code`, v2 `ProtocolError.code`). MCP answers an unknown
 * tool with InvalidParams, told apart by its text.
 */
export function kindForJsonRpcCode(code: number, message?: string): ToolErrorKind | undefined {
  if (code === -32602 && message !== undefined && UNKNOWN_TOOL_TEXT.test(message.slice(0, 1024)))
    return 'unknown_tool';
  switch (code) {
    case -32001: // RequestTimeout
      return 'timeout';
    case -32000: // ConnectionClosed
      return 'network';
    case -32601: // MethodNotFound
      return 'unknown_tool';
    case -32602: // InvalidParams
    case -32600: // InvalidRequest
    case -32700: // ParseError
      return 'invalid_input';
    case -32603: // InternalError
      return 'internal';
    case -32042: // UrlElicitationRequired: the user has to act first
      return 'not_permitted';
    default:
      return undefined;
  }
}

/** gRPC-style canonical status strings (Genkit's `GenkitError.status`, Google APIs). */
export function kindForCanonicalStatus(status: string): ToolErrorKind | undefined {
  switch (status) {
    case 'DEADLINE_EXCEEDED':
      return 'timeout';
    case 'UNAVAILABLE':
      return 'transient';
    case 'RESOURCE_EXHAUSTED':
      return 'quota';
    case 'UNAUTHENTICATED':
    case 'PERMISSION_DENIED':
      return 'auth';
    case 'INVALID_ARGUMENT':
    case 'FAILED_PRECONDITION':
    case 'OUT_OF_RANGE':
      return 'invalid_input';
    case 'NOT_FOUND':
    case 'ALREADY_EXISTS':
    case 'UNIMPLEMENTED':
      return 'permanent';
    case 'CANCELLED':
    case 'ABORTED':
      return 'canceled';
    case 'INTERNAL':
    case 'DATA_LOSS':
    case 'UNKNOWN':
      return 'internal';
    default:
      return undefined;
  }
}

/**
 * Error names and class names that carry meaning on their own. AI SDK errors are named `AI_*`.
 * LangChain's `ToolInputParsingException` keeps `name = 'Error'`, so its class name is checked too.
 */
const NAMED_KINDS: Readonly<Record<string, ToolErrorKind>> = Object.freeze({
  TimeoutError: 'timeout',
  ToolTimeoutError: 'timeout',
  APIConnectionTimeoutError: 'timeout',
  RequestTimeoutError: 'timeout',
  ConnectTimeoutError: 'timeout',
  HeadersTimeoutError: 'timeout',
  BodyTimeoutError: 'timeout',
  AbortError: 'canceled',
  APIUserAbortError: 'canceled',
  CanceledError: 'canceled',
  APIConnectionError: 'network',
  FetchError: 'network',
  ZodError: 'invalid_input',
  $ZodError: 'invalid_input',
  ValidationError: 'invalid_input',
  ToolInputParsingException: 'invalid_input',
  InputValidationError: 'invalid_input',
  AI_InvalidToolInputError: 'invalid_input',
  InvalidToolInputError: 'invalid_input',
  AI_TypeValidationError: 'invalid_input',
  AI_InvalidToolArgumentsError: 'invalid_input',
  ModelBehaviorError: 'invalid_input',
  AI_NoSuchToolError: 'unknown_tool',
  NoSuchToolError: 'unknown_tool',
  ToolNotFoundError: 'unknown_tool',
  PermissionDeniedError: 'auth',
  AuthenticationError: 'auth',
  RateLimitError: 'rate_limit',
  ToolCallRejectedError: 'not_permitted',
  ApprovalDeniedError: 'not_permitted',
  PolicyViolationError: 'not_permitted',
});

export function kindForName(name: string): ToolErrorKind | undefined {
  return Object.prototype.hasOwnProperty.call(NAMED_KINDS, name) ? NAMED_KINDS[name] : undefined;
}

/**
 * Class names by their parts, for a class named for its failure that no list holds
 * (`PineconeConnectionError`, `QdrantClientTimeoutError`, `MeiliSearchCommunicationError`): the
 * first part that says something wins, a timeout before a connection. Kept out of `kindForName`,
 * whose names pass the `error.type` cap. Linear-time patterns, on the CamelCase name.
 */
const NAME_PARTS: ReadonlyArray<readonly [ToolErrorKind, RegExp]> = [
  ['timeout', /Time[dD]?[oO]ut(?:Error|Exception)?$|Timeout|DeadlineExceeded/],
  ['rate_limit', /RateLimit|Throttl|TooManyRequests/],
  ['network', /(?:Connection|Connect|Network|Socket|Communication|Dns)(?:Error|Exception|Failure|Refused)$/],
  ['auth', /Unauthori[sz]ed|Unauthenticated|Authentication|Forbidden|PermissionDenied|AccessDenied/],
  ['permanent', /NotFound/],
];

/** The kind a class name's parts say, for names that end in `Error` or `Exception`. */
export function kindForNameParts(name: string): ToolErrorKind | undefined {
  if (name.length > 128 || !/(?:Error|Exception)$/.test(name)) return undefined;
  for (const [kind, pattern] of NAME_PARTS) if (pattern.test(name)) return kind;
  return undefined;
}
