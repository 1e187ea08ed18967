import { GOOGLE_ADK } from '../../../src/tool-span/families/google-adk';
import { describeSpanFamily } from './conformance';

describeSpanFamily(GOOGLE_ADK, {
  name: 'execute_tool lookup',
  attributes: {},
  // ADK sets gen_ai.* and its response only when the tool returned.
  endAttributes: {
    'gen_ai.operation.name': 'execute_tool',
    'gcp.vertex.agent.tool_response': JSON.stringify({ temperature: 21 }),
  },
});
