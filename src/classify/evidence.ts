/**
 * The one evidence order: which kind of evidence wins when two disagree about one failure. The
 * classifier ranks the links of an error's cause chain by it, the wrapper ranks the errors it sees
 * during one call (a noted error, then the one thrown), and the processor and exporter rank a
 * span's own evidence, a mark the wrapper left, and a failed HTTP call made under the tool span.
 * The README prints this table (a test keeps the two the same).
 */
export const EVIDENCE_ORDER = [
  {
    evidence: 'explicit',
    source:
      "`ToolExecutionError` (or another library's error of that name with a `kind`): the type or kind the tool stated",
  },
  {
    evidence: 'http_status',
    source:
      "an HTTP status on the error: `status`, `statusCode`, `response.status`, the AWS SDK's `$metadata.httpStatusCode`, a fetch `Response`; with the response's `Retry-After`, and throttling the error declares (`SlowDown`, `ThrottlingException`)",
  },
  {
    evidence: 'code',
    source:
      'Node and undici error codes, MCP / JSON-RPC and gRPC codes, database replies (SQLSTATE, MongoDB codes, Redis reply prefixes), DOMException names and classes named for a timeout or a network failure',
  },
  {
    evidence: 'cancel',
    source:
      '`AbortError`, `ABORT_ERR` and other cancellations: below codes, so an abort caused by a timeout stays a timeout',
  },
  {
    evidence: 'class',
    source:
      'classes that mean something by themselves: `ZodError`, `InvalidToolInputError`, `NoSuchToolError`, …',
  },
  {
    evidence: 'http_child',
    source:
      'the last failed HTTP client span under the tool span (status ≥ 400, timeout, network code), with its `retry-after` header',
  },
  {
    evidence: 'message',
    source: 'message patterns (linear-time) on text only: `HTTP 503`, `ECONNRESET`, `rate limit`, …',
  },
  {
    evidence: 'result',
    source: 'a returned error result that says nothing finer: `tool_error`',
  },
  {
    evidence: 'fallback',
    source: "the class name of a generic error (`Error`, `TypeError`, an app's own class): `internal`",
  },
] as const;

/** Where an answer came from; `EVIDENCE_ORDER` ranks them, strongest first. */
export type ClassificationEvidence = (typeof EVIDENCE_ORDER)[number]['evidence'];

const RANK = Object.freeze(
  Object.fromEntries(EVIDENCE_ORDER.map((row, index) => [row.evidence, index])),
) as Readonly<Record<ClassificationEvidence, number>>;

/** The evidence's place in `EVIDENCE_ORDER`: lower is stronger. */
export function evidenceRank(evidence: ClassificationEvidence): number {
  return RANK[evidence];
}

/** True when `a` rests on stronger evidence than `b`. */
export function isStrongerEvidence(a: ClassificationEvidence, b: ClassificationEvidence): boolean {
  return RANK[a] < RANK[b];
}

/**
 * Read from the error object itself (its type, status, code or class), rather than from a
 * neighbouring span, its text or nothing: such an answer outranks a failed HTTP call under the span.
 */
export function isStructuredEvidence(evidence: ClassificationEvidence): boolean {
  return RANK[evidence] < RANK.http_child;
}
