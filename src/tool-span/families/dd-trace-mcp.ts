import type { SpanFamily } from './family';

/** dd-trace's MCP integration: `modelcontextprotocol-sdk.callTool` (or `mcp.request`), the tool in `resource.name`. */
export const DD_TRACE_MCP: SpanFamily = {
  framework: 'dd-trace MCP',
  recognise: [
    { nameEquals: 'modelcontextprotocol-sdk.callTool' },
    { nameEquals: 'mcp.request', present: ['mcp.tool.name'] },
  ],
  toolName: ['mcp.tool.name', 'resource.name'],
  mcpToolCall: {},
};
