import {
  context,
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import { logger } from '../../logger';
import { redactForCapture } from '../../redact/capture';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../../semconv';
import { ACTIVE_TOOL_CALL_KEY } from '../../tool-span/active-tool-call';
import { missingToolName, recognizeToolSpan, type ToolSpanFamily } from '../../tool-span/recognition';
import { liveAttributesOf, type ReadableSpanLike } from '../../tool-span/span-shape';
import { toolSpanName } from '../../tool-span/span-name';
import type { ToolCallInfo, ToolInstrumentationConfig } from '../types';
import type { ToolCallReport, ToolCallSettings } from './options';
import { SpanMarks } from './span-marks';
import { CallAttempt, claimAttempt } from './call-attempt';
import { ToolCall } from './tool-call';

/**
 * Runs `run` as one tool execution: starts `execute_tool {name}` (or enriches the active framework
 * tool span), classifies throws and returned errors, never changes behaviour: the same value is
 * returned or thrown, synchronously if `run` is synchronous. Returned objects are not modified.
 * Promises are returned as they are and observed once their caller observes them, so an
 * unhandled rejection stays the app's; Promise subclasses are observed through the intrinsic
 * `then` at once; other thenables (Bluebird, got's `PCancelable`, lazy ones) through their
 * caller's first reaction when their class gives them the method (thenable-watch.ts). Async
 * generators, Node streams and class iterables keep their identity and end the span when they end;
 * any other async iterable ends the span when `run` returns (see ToolCall). A web
 * `ReadableStream` is the one exception: it comes back as a new stream that reads the original on
 * demand (same chunks, same error, same cancel), since `pipeTo`/`tee` bypass patching.
 */
export function traceToolCall<T>(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  run: (report: ToolCallReport) => T,
  options: ToolCallSettings = {},
): T {
  if (options.outcome === 'reported') return traceReportedCall(tracer, config, info, run, options);
  return traceFunctionCall(tracer, config, info, run, undefined, [], options);
}

/** A call whose outcome the framework reports: `run` gets the report, its value is passed through. */
function traceReportedCall<T>(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  run: (report: ToolCallReport) => T,
  options: ToolCallSettings,
): T {
  const call = startToolCall(tracer, config, info, options);
  if (!call) return run(UNTRACED);
  const report: ToolCallReport = {
    resolve: (value) => call.resolved(value),
    reject: (reason) => call.failed(reason),
  };
  let result: T;
  try {
    result = call.role === 'nested' ? run(report) : context.with(call.context, () => run(report));
  } catch (err) {
    call.failed(err);
    throw err;
  }
  return call.returned(result);
}

/** The report a call gets when its span could not start. */
const UNTRACED: ToolCallReport = { resolve: () => undefined, reject: () => undefined };

/**
 * `traceToolCall` for `fn` called with `self` and `args`: `fn` runs in the call's context through a
 * bound copy, not a closure, so that each level of a tool calling itself costs few stack frames.
 */
export function traceFunctionCall<T>(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  fn: (...args: any[]) => T,
  self: unknown,
  args: unknown[],
  options: ToolCallSettings = {},
): T {
  const call = startToolCall(tracer, config, info, options);
  if (!call) return Reflect.apply(fn, self, args);
  let result: T;
  try {
    // A nested call runs in its outer call's context (same span). The context manager calls its
    // callback with `this` null, not undefined, hence the bound copy.
    result =
      call.role === 'nested'
        ? (Reflect.apply(fn, self, args) as T)
        : context.with(call.context, () => Reflect.apply(fn, self, args) as T);
  } catch (err) {
    call.failed(err);
    throw err;
  }
  return call.returned(result);
}

/**
 * Records an error the framework is about to swallow (or re-wrap) on the tool call running in the
 * active context: the real error object seen in an inner function, for the span of an outer call.
 * Does nothing outside a tool call.
 */
export function recordToolError(err: unknown): void {
  try {
    const call = context.active().getValue(ACTIVE_TOOL_CALL_KEY) as ToolCall | undefined;
    call?.noted(err);
  } catch (e) {
    logger.error('recordToolError failed', e);
  }
}

/**
 * The active span's tool-span family when it is a tool span for `toolName` (recognised the way the
 * processor does: GenAI `execute_tool`, ADK, AI SDK `ai.toolCall`, Genkit, VoltAgent, …), else
 * `undefined`. SDK span fields are read by duck typing, never trusted to exist.
 */
function frameworkToolSpanFamily(span: Span, toolName: string): ToolSpanFamily | undefined {
  const view = { name: readName(span) ?? '', attributes: liveAttributesOf(span) } as ReadableSpanLike;
  const family = recognizeToolSpan(view, undefined);
  if (!family) return undefined;
  const name = view.attributes[ATTR_GEN_AI_TOOL_NAME] ?? missingToolName(view, family);
  return name === undefined || name === toolName ? family : undefined;
}

function startToolCall(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  options: ToolCallSettings,
): ToolCall | undefined {
  try {
    const protocol = options.protocol;
    if (protocol?.parent) return startUnder(tracer, config, info, options, protocol.parent);
    const parent = context.active();
    const active = trace.getSpan(parent);
    const family = active?.isRecording() ? frameworkToolSpanFamily(active, info.name) : undefined;
    if (active && family) {
      const present = liveAttributesOf(active);
      // Another convention's span keeps its own operation name (backends key on it); see the processor.
      const missing = Object.entries(describe(info, config)).filter(
        ([key]) =>
          present[key] === undefined && (family.genAiConvention || key !== ATTR_GEN_AI_OPERATION_NAME),
      );
      if (missing.length > 0) active.setAttributes(Object.fromEntries(missing));
      // The call that made `active` active, if it was ours: read from the context rather than
      // kept in a WeakSet of our spans (BENCHMARKS.md).
      const outer = parent.getValue(ACTIVE_TOOL_CALL_KEY) as ToolCall | undefined;
      if (outer?.span === active) {
        return new ToolCall(active, 'nested', outer.marks, parent, config, info, options);
      }
      const attempt = claimAttempt(active)
        ? CallAttempt.lookUp(info, SpanKind.INTERNAL, parent, options.frameworkAttempt)
        : undefined;
      attempt?.enrichStarted(active);
      return new ToolCall(active, 'framework', SpanMarks.of(active), parent, config, info, options, attempt);
    }
    const kind = protocol?.kind ?? SpanKind.INTERNAL;
    const attempt = CallAttempt.lookUp(info, kind, parent, options.frameworkAttempt);
    const span = tracer.startSpan(
      toolSpanName(info.name, protocol?.operation),
      attemptStart(kind, describe(info, config), NO_LINKS, attempt),
      parent,
    );
    return new ToolCall(span, 'owner', new SpanMarks(), parent, config, info, options, attempt);
  } catch (err) {
    logger.error('could not start the tool span', err);
    return undefined;
  }
}

/**
 * A span under `parent` (a remote parent, or the active context when the request carried none),
 * linked to the active span when that is another one, as the MCP conventions ask of servers.
 */
function startUnder(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  options: ToolCallSettings,
  remote: Context,
): ToolCall {
  const ambient = context.active();
  const remoteSpan = trace.getSpan(remote)?.spanContext();
  const parent = remoteSpan && trace.isSpanContextValid(remoteSpan) ? remote : ambient;
  const ambientSpan = trace.getSpan(ambient)?.spanContext();
  const links: Link[] =
    parent === remote && ambientSpan && ambientSpan.spanId !== remoteSpan?.spanId
      ? [{ context: ambientSpan }]
      : [];
  const kind = options.protocol?.kind ?? SpanKind.INTERNAL;
  const attempt = CallAttempt.lookUp(info, kind, parent, options.frameworkAttempt);
  const span = tracer.startSpan(
    toolSpanName(info.name, options.protocol?.operation),
    attemptStart(kind, describe(info, config), links, attempt),
    parent,
  );
  return new ToolCall(span, 'owner', new SpanMarks(), parent, config, info, options, attempt);
}

const NO_LINKS: Link[] = [];

/** The options of a span the call starts: an attempt starts with its number and its link. */
function attemptStart(
  kind: SpanKind,
  attributes: Attributes,
  links: Link[],
  attempt: CallAttempt | undefined,
): SpanOptions {
  const link = attempt?.link();
  const attemptAttributes = attempt?.startAttributes();
  if (attemptAttributes !== undefined) Object.assign(attributes, attemptAttributes);
  if (link) return { kind, attributes, links: [...links, link] };
  return links.length > 0 ? { kind, attributes, links } : { kind, attributes };
}

function describe(info: ToolCallInfo, config: ToolInstrumentationConfig): Attributes {
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    [ATTR_GEN_AI_TOOL_NAME]: info.name,
  };
  if (info.callId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = info.callId;
  if (info.description !== undefined) attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] = info.description;
  if (info.type !== undefined) attributes[ATTR_GEN_AI_TOOL_TYPE] = info.type;
  if (info.attributes !== undefined) Object.assign(attributes, info.attributes);
  if (config.captureArguments && info.args !== undefined) {
    attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = redactForCapture(info.args);
  }
  return attributes;
}

function readName(span: Span): string | undefined {
  try {
    const name = (span as unknown as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
