import {
  ATTR_AI_TOOL_CALL_NAME,
  ATTR_GENKIT_NAME,
  ATTR_GENKIT_SUBTYPE,
  ATTR_GENKIT_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_DD_RESOURCE_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_OPENINFERENCE_SPAN_KIND,
  ATTR_SENTRY_MCP_TOOL_NAME,
  ATTR_TRACELOOP_SPAN_KIND,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
  ATTR_TOOL_NAME,
  ATTR_TRACELOOP_ENTITY_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../semconv';
import type { ReadableSpanLike } from './span-shape';
import { logger } from '../logger';

/**
 * Which convention a tool span follows; it says where the tool's name and result are.
 * - `gen_ai`: `gen_ai.operation.name=execute_tool` or a span named `execute_tool {name}` (this
 *   package, Google ADK, OpenLLMetry LangChain, AI SDK v7 with @ai-sdk/otel, the Anthropic SDK),
 *   and `@mastra/otel-bridge` spans, named `tool: '{name}'` until the bridge renames them at the end;
 * - `ai_sdk`: the AI SDK's `ai.toolCall` span;
 * - `voltagent`: `tool.execution:{name}`;
 * - `openinference`: `openinference.span.kind=TOOL`;
 * - `genkit`: an action with `genkit:metadata:subtype=tool`;
 * - `mcp`: an MCP `tools/call` span without `gen_ai.operation.name`: any span with
 *   `mcp.method.name=tools/call` (Sentry's `tools/call {tool}`), OpenLLMetry's `{tool}.tool`
 *   (`traceloop.span.kind=tool`), dd-trace's `modelcontextprotocol-sdk.callTool` and `mcp.request`;
 * - `custom`: the application's `isToolSpan` said so.
 */
export type ToolSpanFamily =
  'gen_ai' | 'ai_sdk' | 'voltagent' | 'openinference' | 'genkit' | 'mcp' | 'custom';

/** The application's own test for tool spans. It sees the span at start and again at its end. */
export type ToolSpanMatcher = (span: ReadableSpanLike) => boolean;

// Read on every span. Local copies, because under a transpiling loader (tsx, ts-node) each
// imported binding is a getter call; a bundled build would inline them either way.
const OPERATION_NAME = ATTR_GEN_AI_OPERATION_NAME;
const EXECUTE_TOOL = GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
const OPENINFERENCE_SPAN_KIND = ATTR_OPENINFERENCE_SPAN_KIND;
const GENKIT_SUBTYPE = ATTR_GENKIT_SUBTYPE;
const GENKIT_TYPE = ATTR_GENKIT_TYPE;
const EXECUTE_TOOL_PREFIX = 'execute_tool ';
const MCP_METHOD = ATTR_MCP_METHOD_NAME;
const TOOLS_CALL = MCP_METHOD_NAME_VALUE_TOOLS_CALL;
const TOOLS_CALL_PREFIX = 'tools/call ';
const OPENLLMETRY_MCP_SUFFIX = '.tool';
const DD_TRACE_CALL_TOOL = 'modelcontextprotocol-sdk.callTool';
const DD_TRACE_MCP_REQUEST = 'mcp.request';
const VOLTAGENT_PREFIX = 'tool.execution:';
// @mastra/otel-bridge names a span while it runs: `tool: '{name}'`, `mcp_tool: '{name}' on '{server}'`.
const MASTRA_TOOL_PREFIX = "tool: '";
const MASTRA_MCP_TOOL_PREFIX = "mcp_tool: '";
const ANTHROPIC_PREFIXES = ['anthropic.custom_tool_use ', 'anthropic.mcp_tool_use '];
const CHAR_A = 97;
const CHAR_E = 101;
const CHAR_M = 109;
const CHAR_T = 116;

/**
 * The family of a tool span, or `undefined` for any other span. Runs on every span at start and
 * at end, so a non-tool span costs one character read and five attribute reads (plus the
 * application's matcher, if given). It is called again at the end because some frameworks set
 * their identifying attributes after start (ADK sets `gen_ai.*` only when the tool returned).
 */
export function recognizeToolSpan(
  span: ReadableSpanLike,
  matcher: ToolSpanMatcher | undefined,
): ToolSpanFamily | undefined {
  const attributes = span.attributes;
  if (attributes[OPERATION_NAME] === EXECUTE_TOOL) return 'gen_ai';
  const name = span.name;
  switch (name.charCodeAt(0)) {
    case CHAR_E:
      if (name.startsWith(EXECUTE_TOOL_PREFIX)) return 'gen_ai';
      break;
    case CHAR_A:
      if (name === 'ai.toolCall') return 'ai_sdk';
      break;
    case CHAR_T:
      if (name.startsWith(VOLTAGENT_PREFIX)) return 'voltagent';
      if (name.startsWith(MASTRA_TOOL_PREFIX)) return 'gen_ai';
      break;
    case CHAR_M:
      if (name === DD_TRACE_CALL_TOOL) return 'mcp';
      if (name === DD_TRACE_MCP_REQUEST && attributes[ATTR_SENTRY_MCP_TOOL_NAME] !== undefined) return 'mcp';
      if (name.startsWith(MASTRA_MCP_TOOL_PREFIX)) return 'gen_ai';
      break;
  }
  if (attributes[MCP_METHOD] === TOOLS_CALL) return 'mcp';
  if (attributes[ATTR_TRACELOOP_SPAN_KIND] === 'tool' && name.endsWith(OPENLLMETRY_MCP_SUFFIX)) return 'mcp';
  if (attributes[OPENINFERENCE_SPAN_KIND] === 'TOOL') return 'openinference';
  if (attributes[GENKIT_SUBTYPE] === 'tool' && attributes[GENKIT_TYPE] === 'action') return 'genkit';
  if (matcher !== undefined && matcher(span)) return 'custom';
  return undefined;
}

/**
 * The application's matcher, checked once and made safe: a matcher that throws counts as "not a
 * tool span", and is reported once rather than once a span.
 */
export function guardMatcher(matcher: unknown, owner: string): ToolSpanMatcher | undefined {
  if (matcher === undefined) return undefined;
  if (typeof matcher !== 'function') {
    throw new TypeError(`${owner}: isToolSpan must be a function (span) => boolean, got ${typeof matcher}`);
  }
  let reported = false;
  return (span) => {
    try {
      return matcher(span) === true;
    } catch (error) {
      if (!reported) {
        reported = true;
        logger.warn(`${owner}: the isToolSpan option threw; such spans are treated as non-tool spans`, error);
      }
      return false;
    }
  };
}

/**
 * The tool's name when the span lacks `gen_ai.tool.name` but its framework recorded the name its
 * own way. Filling `gen_ai.tool.name` lets one query and one spanmetrics dimension cover every
 * framework. `gen_ai.operation.name` is deliberately not filled: backends such as Phoenix,
 * Langfuse and OpenLLMetry's own span processor key their handling of these spans on the
 * framework's convention, and a second, competing operation name could change how they treat it.
 */
export function missingToolName(span: ReadableSpanLike, family: ToolSpanFamily): string | undefined {
  const attributes = span.attributes;
  if (attributes[ATTR_GEN_AI_TOOL_NAME] !== undefined) return undefined;
  let name: unknown;
  switch (family) {
    case 'gen_ai':
      name = attributes[ATTR_TRACELOOP_ENTITY_NAME] ?? nameAfterPrefix(span.name);
      break;
    case 'ai_sdk':
      name = attributes[ATTR_AI_TOOL_CALL_NAME];
      break;
    case 'voltagent':
      name = attributes[ATTR_TOOL_NAME] ?? span.name.slice(VOLTAGENT_PREFIX.length);
      break;
    case 'openinference':
      // OpenInference names the span after the LangChain run, which is the tool's name.
      name = attributes[ATTR_TOOL_NAME] ?? span.name;
      break;
    case 'genkit':
      name = attributes[ATTR_GENKIT_NAME] ?? span.name;
      break;
    case 'mcp':
      name =
        attributes[ATTR_SENTRY_MCP_TOOL_NAME] ??
        attributes[ATTR_TRACELOOP_ENTITY_NAME] ??
        attributes[ATTR_DD_RESOURCE_NAME] ??
        (span.name.startsWith(TOOLS_CALL_PREFIX) ? span.name.slice(TOOLS_CALL_PREFIX.length) : undefined);
      break;
    case 'custom':
      name = attributes[ATTR_TOOL_NAME];
      break;
  }
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function nameAfterPrefix(spanName: string): string | undefined {
  if (spanName.startsWith(EXECUTE_TOOL_PREFIX)) return spanName.slice(EXECUTE_TOOL_PREFIX.length);
  for (const prefix of ANTHROPIC_PREFIXES) {
    if (spanName.startsWith(prefix)) return spanName.slice(prefix.length);
  }
  return undefined;
}
