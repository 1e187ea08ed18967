import type { ToolErrorKind } from './kinds';

/**
 * One row of the evidence table (evidence.ts): a kind of evidence about a failure, with its own
 * meaning. A source read from an error can bring its reader; the classifier asks it about every
 * link of an error's cause chain after its own readers.
 */
export interface EvidenceSource {
  /** The name an answer carries as its `evidence`. */
  readonly evidence: string;
  /** Lower is stronger; when two answers about one failure disagree, the lower rank wins. */
  readonly rank: number;
  /** Where it is read: a thrown error, a returned result, or a span near the tool span. */
  readonly from: readonly ('error' | 'result' | 'span')[];
  /**
   * Read from the error object itself (its type, status, code or class), rather than from a
   * neighbouring span, its text or nothing: such an answer outranks a failed HTTP call under the span.
   */
  readonly structured: boolean;
  /** What it is, as the documentation's table says it. */
  readonly source: string;
  /** Reads one link of an error's cause chain for this evidence. */
  readonly readLink?: LinkReader;
}

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
