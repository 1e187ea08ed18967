import { SpanKind } from '@opentelemetry/api';
import { MCP } from '../../../src/tool-span/families/mcp';
import { describeSpanFamily } from './conformance';

describeSpanFamily(MCP, {
  name: 'tools/call lookup',
  kind: SpanKind.SERVER,
  attributes: { 'mcp.method.name': 'tools/call' },
});
