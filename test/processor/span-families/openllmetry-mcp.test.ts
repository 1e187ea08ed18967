import { OPENLLMETRY_MCP } from '../../../src/tool-span/families/openllmetry-mcp';
import { describeSpanFamily } from './conformance';

describeSpanFamily(OPENLLMETRY_MCP, {
  name: 'lookup.tool',
  attributes: { 'traceloop.span.kind': 'tool', 'traceloop.entity.name': 'lookup' },
});
