import type { ToolErrorKind } from './kinds';
import { kindForCode, kindForJsonRpcCode, UNKNOWN_TOOL_TEXT } from './codes';
import { kindForHttpStatus } from './http';

/**
 * Classification from text alone, for failures that carry nothing structured: MCP `isError` text,
 * a returned `{error: "..."}`, a generic `Error("...")`. Used last, once, at the entrance.
 *
 * Every pattern is a plain alternation or a bounded class run, with no nested quantifiers, so
 * V8 matches each in time linear in the message length (ReDoS-safe). Only the head of a long
 * text is read: the failure is stated at its start, and the cost stays bounded whatever a tool
 * puts in a 10 MB message.
 */

export const MAX_SCANNED_MESSAGE_LENGTH = 64 * 1024;

export interface MessageEvidence {
  kind: ToolErrorKind;
  /** A finer `error.type` found in the text: an HTTP status, a JSON-RPC code, a Node error code. */
  errorType?: string;
  httpStatus?: number;
}

const MCP_CODE = /MCP error (-3\d{4})/;
const HTTP_STATUS = /\b(?:status(?: code)?|HTTP(?:\/\d(?:\.\d)?)?|error)[ :=]{1,3}([1-5]\d\d)\b/i;
const RETRY_AFTER = /retry[ -]after/i;
const NODE_CODE = /\b(E[A-Z]{3,15}|UND_ERR_[A-Z_]{1,30})\b/;

// Ordered: the first family that matches wins. Lists include the TypeScript agent seed's patterns.
const FAMILIES: ReadonlyArray<readonly [ToolErrorKind, RegExp]> = [
  ['unknown_tool', UNKNOWN_TOOL_TEXT],
  ['timeout', /timed out|\btimeout\b|deadline exceeded|etimedout|econnaborted/i],
  ['rate_limit', /rate[ _-]?limit|too many requests|overload/i],
  [
    'quota',
    /insufficient_quota|quota exceeded|exceeded (?:your |the )?quota|payment required|out of credits|credit balance/i,
  ],
  [
    'auth',
    /unauthori[sz]ed|unauthenticated|invalid api key|incorrect api key|access denied|forbidden|permission denied/i,
  ],
  [
    'network',
    /econnrefused|econnreset|enotfound|eai_again|socket hang up|\bepipe\b|\bdns\b|\btls\b|\bssl\b|certificate|network error|fetch failed|connection is closed|unable to fetch/i,
  ],
  [
    'invalid_input',
    /invalid (?:arguments|argument|input|parameters|params)|validation (?:failed|error)|failed to parse|does not match (?:the )?schema|required property|expected [a-z]+, received/i,
  ],
  // Refusals by the tool's own service. An approval refused by the agent runtime is no failure
  // (`tool.call.outcome=denied`, from the framework's own record), so its text is not read here.
  ['not_permitted', /not permitted|not allowed|denied by policy|policy violation/i],
  ['canceled', /\baborted\b|\bcancel(?:l)?ed\b/i],
];

export function classifyMessage(message: string): MessageEvidence | undefined {
  if (message.length > MAX_SCANNED_MESSAGE_LENGTH) message = message.slice(0, MAX_SCANNED_MESSAGE_LENGTH);
  const mcp = MCP_CODE.exec(message);
  if (mcp) {
    const code = Number(mcp[1]);
    const kind = kindForJsonRpcCode(code, message);
    if (kind) return { kind, errorType: kind === 'timeout' ? 'timeout' : mcp[1] };
  }
  const status = HTTP_STATUS.exec(message);
  if (status) {
    const httpStatus = Number(status[1]);
    // Text carries no headers; a message that mentions Retry-After is the closest evidence.
    const kind = kindForHttpStatus(httpStatus, RETRY_AFTER.test(message));
    if (kind) return { kind, errorType: status[1], httpStatus };
  }
  const code = NODE_CODE.exec(message);
  if (code) {
    const kind = kindForCode(code[1], message);
    if (kind) return { kind, errorType: kind === 'timeout' ? 'timeout' : code[1] };
  }
  for (const [kind, pattern] of FAMILIES) {
    if (pattern.test(message)) return kind === 'timeout' ? { kind, errorType: 'timeout' } : { kind };
  }
  return undefined;
}
