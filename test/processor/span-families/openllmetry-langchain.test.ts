import { OPENLLMETRY_LANGCHAIN } from '../../../src/tool-span/families/openllmetry-langchain';
import { describeSpanFamily } from './conformance';

describeSpanFamily(OPENLLMETRY_LANGCHAIN, {
  name: 'execute_tool lookup',
  attributes: { 'gen_ai.operation.name': 'execute_tool', 'traceloop.entity.name': 'lookup' },
});
