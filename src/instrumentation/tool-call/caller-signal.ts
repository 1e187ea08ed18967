import { classifyToolError } from '../../classify/classify-error';
import { makeClassification, type ToolErrorClassification } from '../../classify/classification';
import { CANCEL_EVIDENCE } from '../../classify/evidence';
import { read } from '../../classify/safe';

/**
 * A thrown abort, read against the abort signal the framework handed the tool for this call.
 *
 * Some clients enforce their own timeout by aborting their request with no reason, so what they
 * throw is the same bare `AbortError` as a caller's cancel, down to the stack: `@google/genai`
 * 2.32.0 (`httpOptions.timeout`), and `@azure/storage-blob` 12.32.0, whose HTTP client
 * (`@typespec/ts-http-runtime` 0.3.6) drops the reason of the signal it is given, an
 * `AbortSignal.timeout()` included. The caller's signal tells the two apart:
 * - aborted: the caller canceled, and it is `canceled` unless the signal's reason is a timeout
 *   (the AI SDK's own `timeout` option aborts with a `TimeoutError`);
 * - not aborted: the caller did not cancel, so the abort was the tool's own deadline: `timeout`.
 * Without a signal nothing is known and the classification stands. Explicit kinds, and cancels
 * read from text only, are left alone.
 */
export function readAbortAgainst(
  classification: ToolErrorClassification,
  callerSignal: unknown,
): ToolErrorClassification {
  if (classification.kind !== 'canceled' || classification.evidence !== CANCEL_EVIDENCE.evidence)
    return classification;
  const aborted = read(callerSignal, 'aborted');
  if (typeof aborted !== 'boolean') return classification;
  if (!aborted) return makeClassification('timeout', 'timeout', CANCEL_EVIDENCE.evidence);
  const reason = classifyToolError(read(callerSignal, 'reason'));
  return reason.kind === 'timeout' ? reason : classification;
}
