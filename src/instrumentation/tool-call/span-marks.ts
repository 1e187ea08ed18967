import type { Span } from '@opentelemetry/api';
import type { ToolErrorClassification } from '../../classify/classification';
import { isStrongerEvidence } from '../../classify/evidence';

/** A classification with the status text written with it. */
interface Mark {
  classification: ToolErrorClassification;
  message: string | undefined;
}

/**
 * The strongest classification written on one span, so a weaker one never overwrites it. Shared by
 * every call on that span: a nested call finds its outer call's through the context, and calls
 * that enrich a framework's span share one through `SpanMarks.of`, since they need not be nested.
 */
export class SpanMarks {
  classification?: ToolErrorClassification;
  /** The status text written with `classification`. */
  message?: string;
  exceptionRecorded = false;
  /**
   * The strongest failure of nested calls on the span (same tool, called inside itself), written
   * only if the outermost call fails too: an outer call that recovered leaves the span unmarked.
   */
  private nested?: Mark;

  /** The marks of a framework's span, made on first use. */
  static of(span: Span): SpanMarks {
    let marks = frameworkSpanMarks.get(span);
    if (marks === undefined) frameworkSpanMarks.set(span, (marks = new SpanMarks()));
    return marks;
  }

  /**
   * Keeps the classification if its evidence is stronger than the span's; whether it did. A
   * returned error result brings no text: the text of the error noted before it stays (an MCP
   * server handler's own error, which the SDK turns into that result).
   */
  keep(classification: ToolErrorClassification, message: string | undefined): boolean {
    if (this.classification && !isStrongerEvidence(classification.evidence, this.classification.evidence))
      return false;
    this.classification = classification;
    if (message !== undefined) this.message = message;
    return true;
  }

  /** A nested call failed: held until the outermost call fails too. */
  holdNested(classification: ToolErrorClassification, message: string | undefined): void {
    if (!this.nested || isStrongerEvidence(classification.evidence, this.nested.classification.evidence))
      this.nested = { classification, message };
  }

  /** The outermost call failed: the held failure of a nested call counts now; whether it was kept. */
  keepNested(): boolean {
    const nested = this.nested;
    this.nested = undefined;
    return nested !== undefined && this.keep(nested.classification, nested.message);
  }

  /** The outermost call ended without failing: what failed inside it was recovered from. */
  dropNested(): void {
    this.nested = undefined;
  }
}

const frameworkSpanMarks = new WeakMap<Span, SpanMarks>();
