import type { SpanFamily } from './family';

/** The Vercel AI SDK (v6, and v7 without `@ai-sdk/otel`): `ai.toolCall`. */
export const AI_SDK: SpanFamily = {
  framework: 'Vercel AI SDK',
  recognise: [{ nameEquals: 'ai.toolCall' }],
  toolName: ['ai.toolCall.name'],
  callId: ['ai.toolCall.id'],
  result: ['ai.toolCall.result'],
};
