export { ToolErrorSpanProcessor, type ToolErrorSpanProcessorOptions } from './tool-error-span-processor';
export {
  ToolErrorEnrichingExporter,
  type ToolErrorEnrichingExporterOptions,
  type SpanExporterLike,
} from './enriching-exporter';
export type { ReadableSpanLike } from './span-shape';
