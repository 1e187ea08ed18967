import { STRANDS } from '../../../src/tool-span/families/strands';
import { describeSpanFamily } from './conformance';

describeSpanFamily(STRANDS, {
  name: 'execute_tool lookup',
  attributes: { 'gen_ai.operation.name': 'execute_tool' },
  endAttributes: { 'gen_ai.tool.status': 'success' },
  recordErrorResult(span, text) {
    span.setAttribute('gen_ai.tool.status', 'error');
    span.addEvent('gen_ai.choice', { message: JSON.stringify([{ text }]) });
  },
});
