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

// This project's own attributes: the taxonomy and its two flags.
export const ATTR_TOOL_ERROR_KIND = 'tool.error_kind';
export const ATTR_TOOL_ERROR_RETRYABLE = 'tool.error_retryable';
export const ATTR_TOOL_ERROR_EXECUTED = 'tool.error_executed';
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
/** Google ADK: span `execute_tool {name}`; the result on success. */
export const ATTR_ADK_TOOL_RESPONSE = 'gcp.vertex.agent.tool_response';
/** OpenLLMetry (Traceloop) LangChain: span `execute_tool {name}`. */
export const ATTR_TRACELOOP_ENTITY_NAME = 'traceloop.entity.name';
export const ATTR_TRACELOOP_ENTITY_OUTPUT = 'traceloop.entity.output';
/** Mastra (`@mastra/otel-exporter`, `@mastra/otel-bridge`): `tool_call`, `mcp_tool_call`, ... */
export const ATTR_MASTRA_SPAN_TYPE = 'mastra.span.type';
