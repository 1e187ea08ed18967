import type { ToolErrorKind } from '../../src/classify/kinds';

/**
 * Python's errors, for the collector processor: what a Python agent's tool span carries is the
 * exception event OpenTelemetry Python writes (`exception.type` = the class's `__name__`, without
 * its module; `exception.message` = `str(err)`) and the status description
 * (`{ClassName}: {message}`). So classes are matched by name, and a client that formats the
 * response's status into its message is read by an anchored pattern. Names shared by several
 * libraries (`ReadTimeout`: requests and httpx) mean the same there. A qualified name
 * (`httpx.ReadTimeout`) is matched by its last part.
 */
export interface PythonClass {
  readonly name: string;
  readonly kind: ToolErrorKind;
  /** The libraries (and the releases read) that raise it. */
  readonly from: string;
}

const REQUESTS = 'requests 2.32 (requests.exceptions)';
const HTTPX = 'httpx 0.28 (httpx)';
const AIOHTTP = 'aiohttp 3.12 (aiohttp.client_exceptions)';
const URLLIB3 = 'urllib3 2.x (urllib3.exceptions)';
const BUILTIN = 'Python 3.11 built-in exceptions, socket, ssl, asyncio';
const MODEL_SDKS = 'openai 1.x/2.x and anthropic 0.x Python SDKs (openai._exceptions, anthropic._exceptions)';
const GOOGLE = 'google-genai 1.x (google.genai.errors), google-api-core 2.x (google.api_core.exceptions)';

export const PYTHON_CLASSES: readonly PythonClass[] = [
  // Timeouts.
  { name: 'Timeout', kind: 'timeout', from: REQUESTS },
  { name: 'ConnectTimeout', kind: 'timeout', from: `${REQUESTS}; ${HTTPX}` },
  { name: 'ReadTimeout', kind: 'timeout', from: `${REQUESTS}; ${HTTPX}` },
  { name: 'WriteTimeout', kind: 'timeout', from: HTTPX },
  { name: 'PoolTimeout', kind: 'timeout', from: HTTPX },
  { name: 'TimeoutException', kind: 'timeout', from: HTTPX },
  { name: 'ServerTimeoutError', kind: 'timeout', from: AIOHTTP },
  { name: 'ConnectionTimeoutError', kind: 'timeout', from: AIOHTTP },
  { name: 'SocketTimeoutError', kind: 'timeout', from: AIOHTTP },
  { name: 'ReadTimeoutError', kind: 'timeout', from: URLLIB3 },
  { name: 'ConnectTimeoutError', kind: 'timeout', from: URLLIB3 },
  { name: 'APITimeoutError', kind: 'timeout', from: MODEL_SDKS },
  { name: 'DeadlineExceeded', kind: 'timeout', from: GOOGLE },
  // TimeoutError (also socket.timeout, asyncio.TimeoutError) is in the JavaScript table already.
  // Connection, DNS and TLS failures.
  { name: 'ConnectionError', kind: 'network', from: `${REQUESTS}; ${BUILTIN}` },
  { name: 'ConnectionRefusedError', kind: 'network', from: BUILTIN },
  { name: 'ConnectionResetError', kind: 'network', from: BUILTIN },
  { name: 'ConnectionAbortedError', kind: 'network', from: BUILTIN },
  { name: 'BrokenPipeError', kind: 'network', from: BUILTIN },
  { name: 'gaierror', kind: 'network', from: BUILTIN },
  { name: 'SSLError', kind: 'network', from: `${REQUESTS}; ${BUILTIN}` },
  { name: 'SSLCertVerificationError', kind: 'network', from: BUILTIN },
  { name: 'ProxyError', kind: 'network', from: `${REQUESTS}; ${HTTPX}` },
  { name: 'ChunkedEncodingError', kind: 'network', from: REQUESTS },
  { name: 'ConnectError', kind: 'network', from: HTTPX },
  { name: 'ReadError', kind: 'network', from: HTTPX },
  { name: 'WriteError', kind: 'network', from: HTTPX },
  { name: 'NetworkError', kind: 'network', from: HTTPX },
  { name: 'RemoteProtocolError', kind: 'network', from: HTTPX },
  { name: 'ClientConnectionError', kind: 'network', from: AIOHTTP },
  { name: 'ClientConnectorError', kind: 'network', from: AIOHTTP },
  { name: 'ClientConnectorDNSError', kind: 'network', from: AIOHTTP },
  { name: 'ClientConnectorCertificateError', kind: 'network', from: AIOHTTP },
  { name: 'ClientConnectorSSLError', kind: 'network', from: AIOHTTP },
  { name: 'ClientSSLError', kind: 'network', from: AIOHTTP },
  { name: 'ClientOSError', kind: 'network', from: AIOHTTP },
  { name: 'ServerDisconnectedError', kind: 'network', from: AIOHTTP },
  { name: 'ServerConnectionError', kind: 'network', from: AIOHTTP },
  { name: 'ClientPayloadError', kind: 'network', from: AIOHTTP },
  { name: 'URLError', kind: 'network', from: 'urllib.error (Python 3.11)' },
  { name: 'NewConnectionError', kind: 'network', from: URLLIB3 },
  { name: 'NameResolutionError', kind: 'network', from: URLLIB3 },
  { name: 'ProtocolError', kind: 'network', from: URLLIB3 },
  { name: 'MaxRetryError', kind: 'network', from: URLLIB3 },
  // APIConnectionError is in the JavaScript table already (the SDKs share the name).
  // Statuses by class, when the message carries none (the status patterns below win when it does).
  { name: 'InternalServerError', kind: 'transient', from: `${MODEL_SDKS}; ${GOOGLE}` },
  { name: 'OverloadedError', kind: 'transient', from: 'anthropic Python SDK (529)' },
  { name: 'ServiceUnavailable', kind: 'transient', from: GOOGLE },
  { name: 'ServerError', kind: 'transient', from: GOOGLE },
  { name: 'ResourceExhausted', kind: 'quota', from: GOOGLE },
  { name: 'TooManyRequests', kind: 'rate_limit', from: GOOGLE },
  { name: 'Unauthenticated', kind: 'auth', from: GOOGLE },
  { name: 'PermissionDenied', kind: 'auth', from: GOOGLE },
  { name: 'BadRequestError', kind: 'permanent', from: MODEL_SDKS },
  { name: 'NotFoundError', kind: 'permanent', from: MODEL_SDKS },
  { name: 'ConflictError', kind: 'permanent', from: MODEL_SDKS },
  { name: 'UnprocessableEntityError', kind: 'permanent', from: MODEL_SDKS },
  { name: 'TooManyRedirects', kind: 'permanent', from: `${REQUESTS}; ${HTTPX}; ${AIOHTTP}` },
  // Cancellation.
  { name: 'CancelledError', kind: 'canceled', from: BUILTIN },
  // Tool frameworks.
  { name: 'ToolException', kind: 'tool_error', from: 'langchain-core 1.x (langchain_core.tools)' },
  { name: 'McpError', kind: 'tool_error', from: 'mcp 1.x Python SDK (mcp.shared.exceptions)' },
];

/**
 * Clients that write the response's status at the head of their message. Group 1 is the status.
 * RE2-compatible and anchored, so each costs one pass over the message's head.
 */
export const PYTHON_STATUS_MESSAGES: ReadonlyArray<{ readonly pattern: string; readonly from: string }> = [
  { pattern: '^Error code: ([1-5]\\d\\d)\\b', from: MODEL_SDKS },
  { pattern: '^([1-5]\\d\\d) (?:Client|Server) Error\\b', from: `${REQUESTS} HTTPError` },
  { pattern: "^(?:Client|Server) error '([1-5]\\d\\d)\\b", from: `${HTTPX} HTTPStatusError` },
  { pattern: '^([1-5]\\d\\d), message=', from: `${AIOHTTP} ClientResponseError` },
  { pattern: '^([1-5]\\d\\d) [A-Z_]{3,40}\\b', from: `${GOOGLE} APIError ("429 RESOURCE_EXHAUSTED. {...}")` },
];

/** Google's RetryInfo in a message that is `str()` of the response body (single quotes). Group 1: seconds. */
export const PYTHON_RETRY_DELAY = {
  pattern: `['"]retryDelay['"]\\s{0,4}:\\s{0,4}['"](\\d{1,6}(?:\\.\\d{1,9})?)s['"]`,
  from: GOOGLE,
};

/**
 * Python's built-in exception classes: always allowed as `error.type` (a bounded set), as
 * JavaScript's built-in classes are.
 */
export const PYTHON_BUILTIN_CLASSES: readonly string[] = [
  'Exception',
  'ValueError',
  'TypeError',
  'KeyError',
  'IndexError',
  'AttributeError',
  'RuntimeError',
  'NotImplementedError',
  'AssertionError',
  'LookupError',
  'ZeroDivisionError',
  'OSError',
  'FileNotFoundError',
  'PermissionError',
  'JSONDecodeError',
  'UnicodeDecodeError',
];

/**
 * Control flow, not failures: LangGraph's interrupt for a human in the loop and its command to a
 * parent graph end the tool's run with these. A tool span ending with one is left alone.
 */
export const PYTHON_PAUSES: readonly string[] = ['GraphInterrupt', 'NodeInterrupt', 'ParentCommand'];
