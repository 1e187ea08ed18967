import type { ToolErrorKind } from './kinds';

/**
 * Kind names other agent libraries put on their own `ToolExecutionError { kind }` (and ADK-style
 * `error_code` values), read as the `tool.error_kind` that means the same; names that are already
 * ours need no entry. docs/classifier.md lists them with the reasons.
 */
const KIND_ALIASES: Readonly<Record<string, ToolErrorKind>> = Object.freeze({
  validation: 'invalid_input',
  invalid_parameters: 'invalid_input',
  // A per-turn tool budget is a policy refusal: not executed, not worth retrying in the same turn.
  limit_exceeded: 'not_permitted',
  transport_error: 'network',
  execution_error: 'tool_error',
  internal_error: 'internal',
  // A third-party API failed without more detail: assume it is temporary, as a 5xx would be.
  external_service_error: 'transient',
  rate_limited: 'rate_limit',
  not_found: 'permanent',
});

/** The kind an alias stands for; `undefined` for any other value. */
export function kindFromAlias(value: string): ToolErrorKind | undefined {
  return Object.prototype.hasOwnProperty.call(KIND_ALIASES, value) ? KIND_ALIASES[value] : undefined;
}
