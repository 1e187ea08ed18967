import { boundErrorType } from './error-type';
import type { ClassificationEvidence } from './evidence';
import { TOOL_ERROR_KIND_MEANINGS, type ToolErrorKind } from './kinds';

export type { ClassificationEvidence } from './evidence';

export interface ToolErrorClassification {
  /** Low-cardinality `error.type`: an HTTP status, `timeout`, an error code, `tool_error` or a class name. */
  readonly errorType: string;
  readonly kind: ToolErrorKind;
  readonly retryable: boolean;
  readonly executed: boolean;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
  /** Where the answer came from (see `EVIDENCE_ORDER`). */
  readonly evidence: ClassificationEvidence;
}

export function makeClassification(
  kind: ToolErrorKind,
  errorType: string,
  evidence: ClassificationEvidence,
  httpStatus?: number,
  retryAfterMs?: number,
): ToolErrorClassification {
  const meaning = TOOL_ERROR_KIND_MEANINGS[kind];
  const result: {
    -readonly [K in keyof ToolErrorClassification]: ToolErrorClassification[K];
  } = {
    errorType: boundErrorType(errorType),
    kind,
    retryable: meaning.retryable,
    executed: meaning.executed,
    evidence,
  };
  if (httpStatus !== undefined) result.httpStatus = httpStatus;
  if (retryAfterMs !== undefined) result.retryAfterMs = retryAfterMs;
  return result;
}
