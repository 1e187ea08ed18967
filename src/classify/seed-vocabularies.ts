import type { ToolErrorKind } from './kinds';

/**
 * How the vocabularies this project grew from map onto `tool.error_kind`, so teams that already
 * throw or return those values keep their meaning. See the README's taxonomy section for the reasons.
 */

/** entelix `ToolErrorKind` (Rust): seven kinds. Only `validation` is renamed. */
export const ENTELIX_KINDS: Readonly<Record<string, ToolErrorKind>> = Object.freeze({
  transient: 'transient',
  rate_limit: 'rate_limit',
  quota: 'quota',
  auth: 'auth',
  permanent: 'permanent',
  validation: 'invalid_input',
  internal: 'internal',
});

/** The TypeScript agent's `ToolErrorKind` with its `executed` flags. */
export const TS_AGENT_KINDS: Readonly<Record<string, ToolErrorKind>> = Object.freeze({
  unknown_tool: 'unknown_tool',
  invalid_parameters: 'invalid_input',
  not_permitted: 'not_permitted',
  // A per-turn tool budget is a policy refusal: not executed, not worth retrying in the same turn.
  limit_exceeded: 'not_permitted',
  canceled: 'canceled',
  timeout: 'timeout',
  transport_error: 'network',
  execution_error: 'tool_error',
  internal_error: 'internal',
});

/** The ADK result contract's `error_code` values. */
export const ADK_CONTRACT_CODES: Readonly<Record<string, ToolErrorKind>> = Object.freeze({
  // A third-party API failed without more detail: assume it is temporary, as a 5xx would be.
  external_service_error: 'transient',
  rate_limited: 'rate_limit',
  timeout: 'timeout',
  not_found: 'permanent',
  invalid_input: 'invalid_input',
  internal_error: 'internal',
});

/** Any of the seed vocabularies (or our own kinds) to a `tool.error_kind`; `undefined` if unknown. */
export function kindFromSeedVocabulary(value: string): ToolErrorKind | undefined {
  return (
    (Object.prototype.hasOwnProperty.call(TS_AGENT_KINDS, value) && TS_AGENT_KINDS[value]) ||
    (Object.prototype.hasOwnProperty.call(ENTELIX_KINDS, value) && ENTELIX_KINDS[value]) ||
    (Object.prototype.hasOwnProperty.call(ADK_CONTRACT_CODES, value) && ADK_CONTRACT_CODES[value]) ||
    undefined
  );
}
