import type { EvidenceSource } from './evidence-source';

export type { EvidenceSource } from './evidence-source';

/**
 * The evidence sources: which kind of evidence wins when two disagree about one failure. The
 * classifier ranks the links of an error's cause chain by them, the wrapper ranks the errors it
 * sees during one call (a noted error, then the one thrown), and the processor and exporter rank a
 * span's own evidence, a mark the wrapper left, and a failed HTTP call made under the tool span.
 * Each row carries its own meaning: its rank (lower wins), where it is read, and whether it is
 * structured. docs/classifier.md prints the table (a test keeps the two the same).
 */
export const EXPLICIT_EVIDENCE = {
  evidence: 'explicit',
  rank: 1,
  from: ['error', 'result'],
  structured: true,
  source:
    "`ToolExecutionError` (or another library's error of that name with a `kind`): the type or kind the tool stated",
} as const satisfies EvidenceSource;

export const HTTP_STATUS_EVIDENCE = {
  evidence: 'http_status',
  rank: 2,
  from: ['error', 'result'],
  structured: true,
  source:
    "an HTTP status on the error: `status`, `statusCode`, `response.status`, the AWS SDK's `$metadata.httpStatusCode`, a fetch `Response`; with the response's `Retry-After`, and throttling the error declares (`SlowDown`, `ThrottlingException`)",
} as const satisfies EvidenceSource;

export const CODE_EVIDENCE = {
  evidence: 'code',
  rank: 3,
  from: ['error', 'result'],
  structured: true,
  source:
    'Node and undici error codes, MCP / JSON-RPC and gRPC codes, database replies (SQLSTATE, MongoDB codes, Redis reply prefixes), DOMException names and classes named for a timeout or a network failure',
} as const satisfies EvidenceSource;

export const CANCEL_EVIDENCE = {
  evidence: 'cancel',
  rank: 4,
  from: ['error', 'result'],
  structured: true,
  source:
    '`AbortError`, `ABORT_ERR` and other cancellations: below codes, so an abort caused by a timeout stays a timeout',
} as const satisfies EvidenceSource;

export const CLASS_EVIDENCE = {
  evidence: 'class',
  rank: 5,
  from: ['error', 'result'],
  structured: true,
  source:
    'classes that mean something by themselves: `ZodError`, `InvalidToolInputError`, `NoSuchToolError`, …',
} as const satisfies EvidenceSource;

export const HTTP_CHILD_EVIDENCE = {
  evidence: 'http_child',
  rank: 6,
  from: ['span'],
  structured: false,
  source:
    'the last failed HTTP client span under the tool span (status ≥ 400, timeout, network code), with its `retry-after` header',
} as const satisfies EvidenceSource;

export const MESSAGE_EVIDENCE = {
  evidence: 'message',
  rank: 7,
  from: ['error', 'result', 'span'],
  structured: false,
  source: 'message patterns (linear-time) on text only: `HTTP 503`, `ECONNRESET`, `rate limit`, …',
} as const satisfies EvidenceSource;

export const RESULT_EVIDENCE = {
  evidence: 'result',
  rank: 8,
  from: ['result', 'span'],
  structured: false,
  source: 'a returned error result that says nothing finer: `tool_error`',
} as const satisfies EvidenceSource;

export const FALLBACK_EVIDENCE = {
  evidence: 'fallback',
  rank: 9,
  from: ['error', 'span'],
  structured: false,
  source: "the class name of a generic error (`Error`, `TypeError`, an app's own class): `internal`",
} as const satisfies EvidenceSource;

/** The table: a new source is one more line here (and its module, if it brings a reader). */
const SOURCES = [
  EXPLICIT_EVIDENCE,
  HTTP_STATUS_EVIDENCE,
  CODE_EVIDENCE,
  CANCEL_EVIDENCE,
  CLASS_EVIDENCE,
  HTTP_CHILD_EVIDENCE,
  MESSAGE_EVIDENCE,
  RESULT_EVIDENCE,
  FALLBACK_EVIDENCE,
];

/** Where an answer came from; `EVIDENCE_ORDER` ranks them, strongest first. */
export type ClassificationEvidence = (typeof SOURCES)[number]['evidence'];

/** The evidence sources, strongest first. */
export const EVIDENCE_ORDER: readonly (typeof SOURCES)[number][] = Object.freeze(
  [...SOURCES].sort((a, b) => a.rank - b.rank),
);

const BY_NAME: Readonly<Record<string, EvidenceSource>> = Object.freeze(
  Object.fromEntries(SOURCES.map((row) => [row.evidence, row])),
);

/** The readers the sources bring, strongest source first. */
export const SOURCE_LINK_READERS = EVIDENCE_ORDER.flatMap((row: EvidenceSource) =>
  row.readLink === undefined ? [] : [row.readLink],
);

/** True when `a` rests on stronger evidence than `b`. */
export function isStrongerEvidence(a: ClassificationEvidence, b: ClassificationEvidence): boolean {
  return BY_NAME[a]!.rank < BY_NAME[b]!.rank;
}

/** Whether the evidence was read from the error object itself (see `EvidenceSource.structured`). */
export function isStructuredEvidence(evidence: ClassificationEvidence): boolean {
  return BY_NAME[evidence]!.structured;
}
