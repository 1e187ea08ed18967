// What the benchmarks load: the package's public API, and the internals some cases time alone.
export * from '../src/index';
export { classifyMessage, MAX_SCANNED_MESSAGE_LENGTH } from '../src/classify/message';
export { redactForCapture } from '../src/redact/capture';
export { scrubMessage } from '../src/redact/text';
