import { version } from '../../package.json';

/** The instrumentation scope of every span and metric this package makes. */
export const INSTRUMENTATION_NAME = 'otel-tool-errors';
export const INSTRUMENTATION_VERSION: string = version;
