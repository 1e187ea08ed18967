import { GENAI } from '../../../src/tool-span/families/genai';
import { describeSpanFamily } from './conformance';

describeSpanFamily(GENAI, {
  name: 'execute_tool lookup',
  attributes: { 'gen_ai.operation.name': 'execute_tool' },
});
