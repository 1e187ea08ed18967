/**
 * Attribute and metric names, in one place.
 *
 * The GenAI names are copied from `@opentelemetry/semantic-conventions/incubating` (1.45.0) and the
 * semantic-conventions-genai "Execute tool span" section, because libraries must not import the
 * incubating entry point at run time: its exports may change in any minor version.
 */
export {
  ATTR_ERROR_TYPE,
  ERROR_TYPE_VALUE_OTHER,
  ATTR_EXCEPTION_TYPE,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_STACKTRACE,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_REQUEST_METHOD,
} from '@opentelemetry/semantic-conventions';

export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL = 'execute_tool';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const ATTR_GEN_AI_TOOL_DESCRIPTION = 'gen_ai.tool.description';
/** `function`, `extension` or `datastore`. */
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
/** Opt-in: sensitive. */
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
/** Opt-in: sensitive. */
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name';

/** Histogram in seconds; semantic-conventions-genai gen-ai-metrics.md (no constant in 1.45.0). */
export const METRIC_GEN_AI_EXECUTE_TOOL_DURATION = 'gen_ai.execute_tool.duration';

// Model Context Protocol (semantic-conventions-genai `mcp.md`, registry `mcp`, `jsonrpc`, `rpc`).
export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
export const MCP_METHOD_NAME_VALUE_TOOLS_CALL = 'tools/call';
export const ATTR_MCP_SESSION_ID = 'mcp.session.id';
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const ATTR_JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
/** The JSON-RPC error code of an error response, as a string (`-32602`). */
export const ATTR_RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';
/** `pipe` for stdio, `tcp` for HTTP. */
export const ATTR_NETWORK_TRANSPORT = 'network.transport';
/** `error.type` of an MCP `tools/call` that returned `isError: true`. */
export const ERROR_TYPE_VALUE_TOOL_ERROR = 'tool_error';
// This project's own attributes: the taxonomy and its two flags.
export const ATTR_TOOL_ERROR_KIND = 'tool.error_kind';
export const ATTR_TOOL_ERROR_RETRYABLE = 'tool.error_retryable';
export const ATTR_TOOL_ERROR_EXECUTED = 'tool.error_executed';
/**
 * The finer `error.type` when a convention fixes `error.type` to a generic value: on MCP spans an
 * `isError` result is `error.type=tool_error`, and the HTTP status, JSON-RPC code or Node code
 * found behind it (`503`, `-32602`, `ECONNREFUSED`) is kept here, so it stays searchable.
 */
export const ATTR_TOOL_ERROR_DETAIL_TYPE = 'tool.error_detail_type';
/**
 * The class name a framework wrote into `error.type` itself (`HTTPStatusError`), where stronger
 * evidence replaced it (`503`) and no exception event keeps it as its `exception.type`.
 */
export const ATTR_TOOL_ERROR_FRAMEWORK_TYPE = 'tool.error_framework_type';
/**
 * Set when the framework stopped a tool call for someone else's decision rather than letting it
 * run to its end: `paused` (waiting for a human: an interrupt, an approval request, a suspension),
 * `denied` (the runtime's approval step or permission policy refused it: the tool did not run) or
 * `handoff` (control passed to another agent). Such a call is no failure: no status ERROR, no
 * `error.type`. Absent on calls that ran to their end, succeeded or failed.
 */
export const ATTR_TOOL_CALL_OUTCOME = 'tool.call.outcome';
export type ToolCallHalt = 'paused' | 'denied' | 'handoff';
export const TOOL_CALL_HALTS: readonly ToolCallHalt[] = Object.freeze(['paused', 'denied', 'handoff']);
/** Counter of failed tool calls, with the same attributes as the duration histogram. */
export const METRIC_TOOL_ERRORS = 'tool.errors';
/**
 * Experimental. A call of a tool that started after a failed call of the same tool with the same
 * arguments, in the same trace, ended: its attempt number (2, 3, …), and a span link to that failed
 * call. Absent on first calls. A framework that numbers its own retries gives its number.
 */
export const ATTR_TOOL_CALL_ATTEMPT = 'tool.call.attempt';
/**
 * Experimental. On a successful attempt: the `error.type` and `tool.error_kind` of the failed
 * attempt it recovered (the one it links to).
 */
export const ATTR_TOOL_CALL_RECOVERED_ERROR_TYPE = 'tool.call.recovered_error_type';
export const ATTR_TOOL_CALL_RECOVERED_ERROR_KIND = 'tool.call.recovered_error_kind';
/**
 * Experimental. Counter of failed tool calls that a later attempt recovered, with the failure's
 * `gen_ai.tool.name`, `error.type` and `tool.error_kind`: `tool.errors` minus this counter, by
 * tool and kind, are the failures that stayed.
 */
export const METRIC_TOOL_RECOVERED_ERRORS = 'tool.recovered_errors';

// HTTP client attributes before the stable HTTP conventions: instrumentation-http still writes
// these unless OTEL_SEMCONV_STABILITY_OPT_IN=http.
export const ATTR_HTTP_METHOD_OLD = 'http.method';
export const ATTR_HTTP_STATUS_CODE_OLD = 'http.status_code';
/**
 * Set only when the HTTP instrumentation is configured to capture the header (the register does:
 * `RETRY_AFTER_HEADERS`); older instrumentation-http releases wrote `-` as `_`.
 */
export const ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER = 'http.response.header.retry-after';
export const ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_MS = 'http.response.header.retry-after-ms';
export const ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_OLD = 'http.response.header.retry_after';
export const ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_MS_OLD = 'http.response.header.retry_after_ms';
/** The response headers to capture on HTTP client spans, for 429 + Retry-After (`rate_limit`). */
export const RETRY_AFTER_HEADERS: readonly string[] = ['retry-after', 'retry-after-ms'];

/** Host resource attributes (incubating in semantic-conventions 1.45.0), as the SDK's host detector sets them. */
export const ATTR_HOST_NAME = 'host.name';
export const ATTR_HOST_ARCH = 'host.arch';
export const ATTR_HOST_ID = 'host.id';
