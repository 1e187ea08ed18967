export { ToolErrorSpanProcessor, type ToolErrorSpanProcessorOptions } from './tool-error-span-processor';
export {
  ToolErrorEnrichingExporter,
  type ToolErrorEnrichingExporterOptions,
  type SpanExporterLike,
} from './enriching-exporter';
export { RedactingSpanProcessor, type RedactingSpanProcessorOptions } from './redacting-span-processor';
export type { ReadableSpanLike } from '../tool-span/span-shape';
