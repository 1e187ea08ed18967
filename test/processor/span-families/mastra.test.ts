import { MASTRA } from '../../../src/tool-span/families/mastra';
import { describeSpanFamily } from './conformance';

describeSpanFamily(MASTRA, {
  name: 'execute_tool lookup',
  attributes: { 'gen_ai.operation.name': 'execute_tool', 'mastra.span.type': 'tool_call' },
});
