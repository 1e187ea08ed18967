import { ATTR_MCP_METHOD_NAME, MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../semconv';
import type { SpanFamily } from './family';

/**
 * MCP `tools/call` spans as the MCP conventions name them (`mcp.method.name`): Sentry's MCP
 * server integration (`tools/call {tool}`, with `mcp.tool.name` and, for an `isError` result,
 * `mcp.tool.result.is_error`), this package's MCP adapter, and other instrumentations.
 */
export const MCP: SpanFamily = {
  framework: 'MCP tools/call (Sentry)',
  recognise: [{ attributes: { [ATTR_MCP_METHOD_NAME]: MCP_METHOD_NAME_VALUE_TOOLS_CALL } }],
  toolName: ['mcp.tool.name', { nameAfter: 'tools/call ' }],
  mcpToolCall: { flag: 'mcp.tool.result.is_error', text: 'mcp.tool.result.content' },
};
