import type { SpanFamily } from './family';

/** Genkit: a tool is an action (`genkit:type=action`) with `genkit:metadata:subtype=tool`. */
export const GENKIT: SpanFamily = {
  framework: 'Genkit',
  recognise: [{ attributes: { 'genkit:metadata:subtype': 'tool', 'genkit:type': 'action' } }],
  toolName: ['genkit:name', { wholeName: true }],
  result: ['genkit:output'],
};
