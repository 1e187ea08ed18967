import { boundErrorType } from './error-type';
import { TOOL_ERROR_KIND_MEANINGS, type ToolErrorKind } from './kinds';

/** Where the answer came from, strongest first. Lets callers keep a more specific earlier answer. */
export type ClassificationEvidence =
  'explicit' | 'http_status' | 'code' | 'class' | 'message' | 'result' | 'fallback';

export interface ToolErrorClassification {
  /** Low-cardinality `error.type`: an HTTP status, `timeout`, an error code, `tool_error` or a class name. */
  readonly errorType: string;
  readonly kind: ToolErrorKind;
  readonly retryable: boolean;
  readonly executed: boolean;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
  readonly evidence: ClassificationEvidence;
}

const EVIDENCE_STRENGTH: Readonly<Record<ClassificationEvidence, number>> = {
  explicit: 0,
  http_status: 1,
  code: 2,
  class: 3,
  result: 4,
  message: 5,
  fallback: 6,
};

/** True when `a` rests on stronger evidence than `b`. */
export function isStrongerEvidence(a: ClassificationEvidence, b: ClassificationEvidence): boolean {
  return EVIDENCE_STRENGTH[a] < EVIDENCE_STRENGTH[b];
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
