/**
 * The `tool.error_kind` taxonomy: one row a kind, each saying what an operator should do.
 * `executed` says whether the tool's own code ran; `retryable` whether the same call may succeed later.
 */
export type ToolErrorKind =
  | 'unknown_tool'
  | 'invalid_input'
  | 'not_permitted'
  | 'canceled'
  | 'timeout'
  | 'network'
  | 'rate_limit'
  | 'quota'
  | 'auth'
  | 'transient'
  | 'permanent'
  | 'tool_error'
  | 'internal';

export interface ToolErrorKindMeaning {
  readonly kind: ToolErrorKind;
  readonly executed: boolean;
  readonly retryable: boolean;
  /** What an operator should do, in one line. */
  readonly description: string;
}

function row(kind: ToolErrorKind, executed: boolean, retryable: boolean, description: string) {
  return Object.freeze({ kind, executed, retryable, description });
}

export const TOOL_ERROR_KIND_MEANINGS: Readonly<Record<ToolErrorKind, ToolErrorKindMeaning>> = Object.freeze({
  unknown_tool: row(
    'unknown_tool',
    false,
    false,
    'The model called a tool that is not registered: fix the tool list or the prompt.',
  ),
  invalid_input: row(
    'invalid_input',
    false,
    false,
    'The arguments failed validation: the model must fix them; check the schema and prompt.',
  ),
  not_permitted: row(
    'not_permitted',
    false,
    false,
    'The tool or its service refused the call by policy or limit: review that policy, not the tool.',
  ),
  canceled: row(
    'canceled',
    false,
    false,
    'The caller aborted the call: not a tool fault; check why the run was stopped.',
  ),
  timeout: row(
    'timeout',
    true,
    true,
    'The call ran out of time: retry with backoff; raise the timeout or fix a slow dependency.',
  ),
  network: row(
    'network',
    true,
    true,
    'Connection, DNS or TLS failed: retry; check the endpoint, DNS and certificates.',
  ),
  rate_limit: row(
    'rate_limit',
    true,
    true,
    'Rate limited (a 429 without quota evidence): retry after the given delay; lower the call rate.',
  ),
  quota: row(
    'quota',
    true,
    false,
    'Quota, credits or a daily or monthly limit spent: raise the quota; retrying will not help.',
  ),
  auth: row(
    'auth',
    true,
    false,
    'Credentials were refused (401/403): rotate or fix the key or its permissions.',
  ),
  transient: row(
    'transient',
    true,
    true,
    'The upstream failed temporarily (5xx, 408, 425): retry with backoff; watch its health.',
  ),
  permanent: row(
    'permanent',
    true,
    false,
    'The upstream rejected the request (4xx): fix the request or the data; do not retry.',
  ),
  tool_error: row(
    'tool_error',
    true,
    false,
    'The tool returned an error result without detail: read the result text, then fix the tool.',
  ),
  internal: row('internal', true, false, 'The tool crashed (a bug such as TypeError): fix the tool code.'),
});

export const TOOL_ERROR_KINDS: readonly ToolErrorKind[] = Object.freeze(
  Object.keys(TOOL_ERROR_KIND_MEANINGS) as ToolErrorKind[],
);

export function isToolErrorKind(value: unknown): value is ToolErrorKind {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TOOL_ERROR_KIND_MEANINGS, value);
}
