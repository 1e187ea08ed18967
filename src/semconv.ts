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
/** Sentry's MCP server integration: `mcp.tool.name` and `mcp.tool.result.is_error`. */
export const ATTR_SENTRY_MCP_TOOL_NAME = 'mcp.tool.name';
export const ATTR_SENTRY_MCP_TOOL_RESULT_IS_ERROR = 'mcp.tool.result.is_error';
export const ATTR_SENTRY_MCP_TOOL_RESULT_CONTENT = 'mcp.tool.result.content';

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

// What agent frameworks write on their own tool spans. The processor reads these, never writes them.
/** Vercel AI SDK (v6, and v7 without @ai-sdk/otel): span `ai.toolCall`. */
export const ATTR_AI_TOOL_CALL_NAME = 'ai.toolCall.name';
export const ATTR_AI_TOOL_CALL_RESULT = 'ai.toolCall.result';
/** OpenInference: `openinference.span.kind=TOOL`, `tool.name`, `output.value`. */
export const ATTR_OPENINFERENCE_SPAN_KIND = 'openinference.span.kind';
export const ATTR_OPENINFERENCE_OUTPUT_VALUE = 'output.value';
/** OpenInference and VoltAgent both name the tool `tool.name`. */
export const ATTR_TOOL_NAME = 'tool.name';
/** VoltAgent: span `tool.execution:{name}`; `output` holds the returned value. */
export const ATTR_VOLTAGENT_OUTPUT = 'output';
/** Genkit actions: a tool is `genkit:type=action` with `genkit:metadata:subtype=tool`. */
export const ATTR_GENKIT_TYPE = 'genkit:type';
export const ATTR_GENKIT_SUBTYPE = 'genkit:metadata:subtype';
export const ATTR_GENKIT_NAME = 'genkit:name';
export const ATTR_GENKIT_OUTPUT = 'genkit:output';
/**
 * Strands Agents: span `execute_tool {name}`; `gen_ai.tool.status` is its result's status, and the
 * result's content is the `message` of its `gen_ai.choice` event (Strands' own names).
 */
export const ATTR_STRANDS_TOOL_STATUS = 'gen_ai.tool.status';
export const STRANDS_RESULT_EVENT = 'gen_ai.choice';
export const ATTR_STRANDS_RESULT_MESSAGE = 'message';
/** Google ADK: span `execute_tool {name}`; the result on success. */
export const ATTR_ADK_TOOL_RESPONSE = 'gcp.vertex.agent.tool_response';
/** OpenLLMetry (Traceloop) LangChain: span `execute_tool {name}`. */
export const ATTR_TRACELOOP_ENTITY_NAME = 'traceloop.entity.name';
export const ATTR_TRACELOOP_ENTITY_OUTPUT = 'traceloop.entity.output';
/** OpenLLMetry MCP (`@traceloop/instrumentation-mcp`): span `{tool}.tool` with `traceloop.span.kind=tool`. */
export const ATTR_TRACELOOP_SPAN_KIND = 'traceloop.span.kind';
/** dd-trace's MCP integration: span `modelcontextprotocol-sdk.callTool` (or `mcp.request`), tool in `resource.name`. */
export const ATTR_DD_RESOURCE_NAME = 'resource.name';
/** Mastra (`@mastra/otel-exporter`, `@mastra/otel-bridge`): `tool_call`, `mcp_tool_call`, ... */
export const ATTR_MASTRA_SPAN_TYPE = 'mastra.span.type';
