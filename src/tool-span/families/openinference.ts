import type { SpanFamily } from './family';

/** OpenInference: `openinference.span.kind=TOOL`; the span is named after the tool (the LangChain run). */
export const OPENINFERENCE: SpanFamily = {
  framework: 'OpenInference',
  recognise: [{ attributes: { 'openinference.span.kind': 'TOOL' } }],
  toolName: ['tool.name', { wholeName: true }],
  result: ['output.value'],
};
