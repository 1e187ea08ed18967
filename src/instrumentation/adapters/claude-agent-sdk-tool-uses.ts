import { context, type Context } from '@opentelemetry/api';
import { classifyToolError } from '../../classify/classify-error';
import { makeClassification, type ToolErrorClassification } from '../../classify/classification';
import { MESSAGE_EVIDENCE } from '../../classify/evidence';
import { classifyToolResult } from '../../classify/result';
import { isObjectLike, readOwnData, readOwnString } from '../../classify/safe';
import { ToolExecutionError } from '../../errors';
import { logger } from '../../logger';
import type { ToolCallReport } from '../tool-call/options';
import type { AdapterContext } from './adapter';
import { onFirstUse } from './shared/on-first-use';

/**
 * The tool calls of one Claude Agent SDK `query()`, read from the messages the app reads: an
 * assistant message's `tool_use` block starts an `execute_tool` span, the user message's
 * `tool_result` block with the same `tool_use_id` ends it. The CLI runs the tools (built-in, MCP
 * and, through the SDK, in-process ones); the stream is all the app's process sees of them.
 */

// `tool_result_meta[]`: a `permission_decision` of `reject` refused the call (`canUseTool`, a
// permission rule or mode, the user at a prompt): `denied`, no failure. A `non_execution_kind`
// without it (the CLI's values, 0.3.x) says it was stopped: `interrupted`, `cancelled`, and
// `user-rejected` for an `interrupt()` while it ran; the other kinds are permission refusals.
const STOPPED_KINDS = new Set(['interrupted', 'cancelled', 'user-rejected']);
const CANCELED = onFirstUse(() =>
  classifyToolError(new ToolExecutionError('tool call canceled', { kind: 'canceled' })),
);
// The CLI's text for arguments its schema refused, before the tool ran.
const INVALID_INPUT_TEXT = /^<tool_use_error>InputValidationError:/;
const INVALID_INPUT = makeClassification('invalid_input', 'tool_error', MESSAGE_EVIDENCE.evidence);

interface OpenToolUse {
  /** Settles the call's span; none until the span started. */
  outcome?: ToolCallReport;
  /** The span's context: tool calls of a subagent this tool started nest under it. */
  context: Context;
  /** What the CLI said about the call's result, read before the span is classified. */
  verdict?: ToolErrorClassification;
  /** The CLI's permission check refused the call: it never ran. */
  denied?: boolean;
}

export class ToolUseSpans {
  private readonly open = new Map<string, OpenToolUse>();

  constructor(
    private readonly ctx: AdapterContext,
    private readonly parent: Context,
    /** The real error an in-process tool threw, by `tool_use_id`, if one did. */
    private readonly thrownBy: (toolUseId: string) => unknown,
  ) {}

  /** One message the app is about to get. Never throws. */
  read(message: unknown): void {
    try {
      if (!isObjectLike(message)) return;
      const type = readOwnData(message, 'type');
      if (type !== 'assistant' && type !== 'user') return;
      const content = readOwnData(readOwnData(message, 'message'), 'content');
      if (!Array.isArray(content)) return;
      for (const block of content as unknown[]) {
        if (!isObjectLike(block)) continue;
        const blockType = readOwnData(block, 'type');
        if (type === 'assistant' && blockType === 'tool_use') this.start(block, message);
        else if (type === 'user' && blockType === 'tool_result') this.finish(block, message);
      }
    } catch (err) {
      logger.error('could not read a Claude Agent SDK message', err);
    }
  }

  /** The stream ended, or the app stopped reading it: calls with no result were cut short. */
  end(err?: unknown): void {
    for (const [id, call] of this.open) {
      this.open.delete(id);
      if (err !== undefined) {
        call.outcome?.reject(err);
        continue;
      }
      call.verdict = CANCELED();
      call.outcome?.resolve(undefined);
    }
  }

  private start(block: object, message: object): void {
    const id = readOwnString(block, 'id');
    const name = readOwnString(block, 'name');
    if (id === undefined || name === undefined || this.open.has(id)) return;
    const parentId = readOwnString(message, 'parent_tool_use_id');
    const parent = (parentId !== undefined && this.open.get(parentId)?.context) || this.parent;
    const call: OpenToolUse = { context: parent };
    this.open.set(id, call);
    context.with(parent, () =>
      this.ctx.traceToolCall(
        { name, callId: id, type: 'function', args: readOwnData(block, 'input') },
        (outcome) => {
          call.context = context.active();
          call.outcome = outcome;
        },
        {
          // The CLI runs the tool; the messages report how it went (see finish).
          outcome: 'reported',
          classifyResult: (result) => call.verdict ?? classifyToolResult(result),
          halts: { returned: () => (call.denied ? 'denied' : undefined) },
        },
      ),
    );
  }

  private finish(block: object, message: object): void {
    const id = readOwnString(block, 'tool_use_id');
    const call = id === undefined ? undefined : this.open.get(id);
    if (id === undefined || call === undefined) return;
    this.open.delete(id);
    const thrown = this.thrownBy(id);
    if (thrown !== undefined) {
      call.outcome?.reject(thrown);
      return;
    }
    if (readOwnData(block, 'is_error') === true) {
      const meta = metaOf(message, id);
      if (isRefused(meta)) call.denied = true;
      else call.verdict = verdictOf(block, meta);
    }
    call.outcome?.resolve(block);
  }
}

/** The CLI's `tool_result_meta` entry for one call, if any. */
function metaOf(message: object, id: string): object | undefined {
  const entries = readOwnData(message, 'tool_result_meta');
  if (!Array.isArray(entries)) return undefined;
  return entries.find((entry) => isObjectLike(entry) && readOwnData(entry, 'id') === id) as
    object | undefined;
}

/** The CLI's permission check refused the call, by its decision or, without one, by the kind of non-execution. */
function isRefused(meta: object | undefined): boolean {
  if (readOwnData(readOwnData(meta, 'permission_decision'), 'decision') === 'reject') return true;
  const notRun = readOwnString(meta, 'non_execution_kind');
  return notRun !== undefined && !STOPPED_KINDS.has(notRun);
}

/** A failed result that was not refused: cut short, bad arguments, or what its text says. */
function verdictOf(block: object, meta: object | undefined): ToolErrorClassification | undefined {
  if (readOwnString(meta, 'non_execution_kind') !== undefined) return CANCELED();
  const content = readOwnData(block, 'content');
  if (typeof content === 'string' && INVALID_INPUT_TEXT.test(content)) return INVALID_INPUT;
  return undefined;
}
