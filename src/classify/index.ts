export { classifyToolError } from './classify-error';
export { classifyToolResult } from './result';
export { classifyMessage, MAX_SCANNED_MESSAGE_LENGTH, type MessageEvidence } from './message';
export { kindForHttpStatus, parseRetryAfter } from './http';
export { type ToolErrorClassification } from './classification';
export { EVIDENCE_ORDER, isStrongerEvidence, type ClassificationEvidence } from './evidence';
export {
  TOOL_ERROR_KINDS,
  TOOL_ERROR_KIND_MEANINGS,
  isToolErrorKind,
  type ToolErrorKind,
  type ToolErrorKindMeaning,
} from './kinds';
export {
  ADK_CONTRACT_CODES,
  ENTELIX_KINDS,
  TS_AGENT_KINDS,
  kindFromSeedVocabulary,
} from './seed-vocabularies';
export { DEFAULT_MAX_ERROR_TYPES, setMaxErrorTypes, resetErrorTypes } from './error-type';
