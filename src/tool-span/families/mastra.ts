import { EXECUTE_TOOL_OPERATION, type SpanFamily } from './family';

/** `tool_call`, `mcp_tool_call`, ... */
const SPAN_TYPE = 'mastra.span.type';

/**
 * Mastra (`@mastra/otel-exporter`, `@mastra/otel-bridge`). The bridge names a span while it runs
 * `tool: '{name}'` or `mcp_tool: '{name}' on '{server}'`, and renames it `execute_tool {name}` at
 * its end. Both write `error.type = errorInfo.id || 'unknown'`: a Mastra error id
 * (`TOOL_EXECUTION_FAILED`), not the tool's error.
 */
export const MASTRA: SpanFamily = {
  framework: 'Mastra',
  recognise: [
    { namePrefix: "tool: '" },
    { namePrefix: "mcp_tool: '" },
    { attributes: EXECUTE_TOOL_OPERATION, present: [SPAN_TYPE] },
    { namePrefix: 'execute_tool ', present: [SPAN_TYPE] },
  ],
  genAiConvention: true,
  toolName: [{ nameAfter: 'execute_tool ' }],
  ownErrorType: true,
};
