import { classifyToolError } from './classify-error';
import { makeClassification, type ToolErrorClassification } from './classification';
import { FALLBACK_EVIDENCE, isStructuredEvidence, MESSAGE_EVIDENCE, RESULT_EVIDENCE } from './evidence';
import { isError, isObjectLike, readOwnData, readOwnString, readString } from './safe';
import { classifyMessage } from './message';

/**
 * Detects an error that a tool *returned* rather than threw, and classifies it. The shapes:
 * - MCP `CallToolResult { isError: true, content }`, LlamaIndex `{ isError: true, output }`,
 *   Anthropic `tool_result { is_error: true }`;
 * - the AI SDK `tool-error` part `{ type: 'tool-error', error }` (the real error object);
 * - LangChain `ToolMessage { status: 'error' }` and REST-style `{ status: 'error' }`;
 * - the ADK contract `{ success: false, error }`;
 * - Mastra and VoltAgent `{ error: true, message, validationErrors? }`;
 * - `{ error: "text" }` or `{ error: Error }`.
 * Returns `undefined` for anything that is not an error result. Never throws. Reads the result's
 * own data properties only (no getter, no Proxy trap runs); an error object found in it is read as
 * `classifyToolError` reads a thrown one.
 */
export function classifyToolResult(result: unknown): ToolErrorClassification | undefined {
  try {
    return detect(result);
  } catch {
    return undefined;
  }
}

function detect(result: unknown): ToolErrorClassification | undefined {
  if (!isObjectLike(result) || Array.isArray(result)) return undefined;

  if (readOwnData(result, 'type') === 'tool-error') {
    const error = readOwnData(result, 'error');
    return error === undefined ? fromText(undefined) : classifyToolError(error);
  }
  if (readOwnData(result, 'isError') === true || readOwnData(result, 'is_error') === true) {
    return fromText(textOf(readOwnData(result, 'content')) ?? textOf(readOwnData(result, 'output')));
  }
  const error = readOwnData(result, 'error');
  if (error === true) {
    // Mastra returns validation failures as `{ error: true, validationErrors }`: bad input never
    // ran the tool; bad output means the tool ran and returned something its schema refuses.
    if (readOwnData(result, 'validationErrors') !== undefined) {
      const outputFailed = /output validation/i.test(readOwnString(result, 'message') ?? '');
      return makeClassification(
        outputFailed ? 'tool_error' : 'invalid_input',
        'tool_error',
        RESULT_EVIDENCE.evidence,
      );
    }
    return fromNamedResult(result);
  }
  if (readOwnData(result, 'success') === false)
    return fromErrorValue(error ?? readOwnData(result, 'message'));
  if (readOwnData(result, 'status') === 'error') {
    return fromText(
      textOf(readOwnData(result, 'content')) ?? readOwnString(result, 'error_message') ?? textOf(error),
    );
  }
  if ((typeof error === 'string' && error !== '') || isError(error)) return fromErrorValue(error);
  return undefined;
}

/** VoltAgent's `{ error: true, name, message }` keeps the class name of what was thrown. */
function fromNamedResult(result: object): ToolErrorClassification {
  const name = readOwnString(result, 'name');
  const message = readOwnString(result, 'message');
  if (name && name !== 'Error') {
    const byName = classifyToolError({ name, message });
    if (isStructuredEvidence(byName.evidence)) return byName;
  }
  return fromText(message);
}

/**
 * A returned error value: classified like a throw, but `tool_error` rather than `internal` when
 * it says nothing (a `result` answer ranks above `fallback`).
 */
function fromErrorValue(error: unknown): ToolErrorClassification {
  if (!isObjectLike(error)) return fromText(typeof error === 'string' ? error : undefined);
  const classified = classifyToolError(error);
  return classified.evidence === FALLBACK_EVIDENCE.evidence
    ? fromText(readString(error, 'message'))
    : classified;
}

/** A returned error described only by text: `tool_error` unless the text says more. */
function fromText(text: string | undefined): ToolErrorClassification {
  const found = text ? classifyMessage(text) : undefined;
  if (!found) return makeClassification('tool_error', 'tool_error', RESULT_EVIDENCE.evidence);
  return makeClassification(
    found.kind,
    found.errorType ?? 'tool_error',
    MESSAGE_EVIDENCE.evidence,
    found.httpStatus,
  );
}

/** The text of MCP/Anthropic content blocks, a string, or a `{ message }` object. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const block of value) {
      const text = readOwnString(block, 'text');
      if (text) return text;
    }
    return undefined;
  }
  return readOwnString(value, 'message');
}
