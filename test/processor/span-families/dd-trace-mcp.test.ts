import { SpanKind } from '@opentelemetry/api';
import { DD_TRACE_MCP } from '../../../src/tool-span/families/dd-trace-mcp';
import { describeSpanFamily } from './conformance';

describeSpanFamily(DD_TRACE_MCP, {
  name: 'modelcontextprotocol-sdk.callTool',
  kind: SpanKind.CLIENT,
  attributes: { 'resource.name': 'lookup' },
});
