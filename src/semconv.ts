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
