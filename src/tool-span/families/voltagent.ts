import type { SpanFamily } from './family';

/** VoltAgent: `tool.execution:{name}`; `output` holds the returned value. */
export const VOLTAGENT: SpanFamily = {
  framework: 'VoltAgent',
  recognise: [{ namePrefix: 'tool.execution:' }],
  toolName: ['tool.name', { nameAfter: 'tool.execution:' }],
  callId: ['tool.call.id'],
  result: ['output'],
};
