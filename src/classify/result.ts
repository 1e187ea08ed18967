import { classifyToolError } from './classify-error';
import { makeClassification, type ToolErrorClassification } from './classification';
import { isStructuredEvidence } from './evidence';
import { isObjectLike, read, readString } from './safe';
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
 * Returns `undefined` for anything that is not an error result. Never throws.
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

  if (read(result, 'type') === 'tool-error') {
    const error = read(result, 'error');
    return error === undefined ? fromText(undefined) : classifyToolError(error);
  }
  if (read(result, 'isError') === true || read(result, 'is_error') === true) {
    return fromText(textOf(read(result, 'content')) ?? textOf(read(result, 'output')));
  }
  const error = read(result, 'error');
  if (error === true) {
    // Mastra returns validation failures as `{ error: true, validationErrors }`: bad input never
    // ran the tool; bad output means the tool ran and returned something its schema refuses.
    if (read(result, 'validationErrors') !== undefined) {
      const outputFailed = /output validation/i.test(readString(result, 'message') ?? '');
      return makeClassification(outputFailed ? 'tool_error' : 'invalid_input', 'tool_error', 'result');
    }
    return fromNamedResult(result);
  }
  if (read(result, 'success') === false) return fromErrorValue(error ?? read(result, 'message'));
  if (read(result, 'status') === 'error') {
    return fromText(textOf(read(result, 'content')) ?? readString(result, 'error_message') ?? textOf(error));
  }
  if ((typeof error === 'string' && error !== '') || isErrorObject(error)) return fromErrorValue(error);
  return undefined;
}

/** VoltAgent's `{ error: true, name, message }` keeps the class name of what was thrown. */
function fromNamedResult(result: object): ToolErrorClassification {
  const name = readString(result, 'name');
  const message = readString(result, 'message');
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
  return classified.evidence === 'fallback' ? fromText(readString(error, 'message')) : classified;
}

function isErrorObject(value: unknown): boolean {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/** A returned error described only by text: `tool_error` unless the text says more. */
function fromText(text: string | undefined): ToolErrorClassification {
  const found = text ? classifyMessage(text) : undefined;
  if (!found) return makeClassification('tool_error', 'tool_error', 'result');
  return makeClassification(found.kind, found.errorType ?? 'tool_error', 'message', found.httpStatus);
}

/** The text of MCP/Anthropic content blocks, a string, or a `{ message }` object. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const block of value) {
      const text = readString(block, 'text');
      if (text) return text;
    }
    return undefined;
  }
  return readString(value, 'message');
}
