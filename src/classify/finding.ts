import type { EvidenceSource } from './evidence';
import type { ToolErrorKind } from './kinds';

/** What one evidence source read in one link of an error's cause chain; ranked by its source. */
export interface Finding {
  readonly source: EvidenceSource;
  readonly kind?: ToolErrorKind;
  readonly errorType?: string;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
  /** An HTTP status that came without a response (see `HttpEvidence.synthetic`). */
  readonly synthetic?: boolean;
  /** Read from a class name (`APIConnectionError`), not from a code the error carries. */
  readonly byName?: boolean;
}

/** Reads one link (the error, or an error in its cause chain); `undefined` when it holds nothing for it. */
export type LinkReader = (link: object) => Finding | undefined;
