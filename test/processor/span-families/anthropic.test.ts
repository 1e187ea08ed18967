import { ANTHROPIC } from '../../../src/tool-span/families/anthropic';
import { describeSpanFamily } from './conformance';

describeSpanFamily(ANTHROPIC, {
  name: 'anthropic.custom_tool_use lookup',
  attributes: { 'gen_ai.operation.name': 'execute_tool' },
});
