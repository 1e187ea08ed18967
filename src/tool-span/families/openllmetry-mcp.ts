import type { SpanFamily } from './family';

/**
 * OpenLLMetry MCP (`@traceloop/instrumentation-mcp`): `{tool}.tool` with `traceloop.span.kind=tool`.
 * An `isError` result ends the span with status ERROR carrying the result's text.
 */
export const OPENLLMETRY_MCP: SpanFamily = {
  framework: 'OpenLLMetry MCP',
  recognise: [{ attributes: { 'traceloop.span.kind': 'tool' }, nameSuffix: '.tool' }],
  toolName: ['traceloop.entity.name'],
  result: ['traceloop.entity.output'],
  mcpToolCall: {},
};
