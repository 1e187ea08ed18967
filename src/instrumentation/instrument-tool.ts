import { trace } from '@opentelemetry/api';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from '../tool-span/scope';
import { checkCaptureOptions } from './config';
import { withNameAndLength } from './name-and-length';
import type { InstrumentToolOptions, ToolCallInfo } from './types';
import type { ToolCallOptions } from './tool-call/options';
import { traceFunctionCall } from './tool-call/trace-tool-call';

type ToolFunction = (...args: any[]) => unknown;

// Own properties a function always has; the wrapper gets its own versions of these.
const FUNCTION_KEYS = new Set<PropertyKey>(['length', 'name', 'prototype', 'arguments', 'caller']);

/**
 * Wraps a hand-written tool function so each call is one `execute_tool {name}` span with its
 * failures classified. The wrapper is transparent: same `this`, return value, thrown value,
 * sync/async behaviour, `length`, `name` and own properties as `fn`.
 *
 * `info` is the tool name, or the span attributes of the tool (its `args` are taken from each call:
 * the first argument, recorded only with `captureArguments`).
 */
export function instrumentTool<F extends ToolFunction>(
  fn: F,
  info: string | Omit<ToolCallInfo, 'args'>,
  options: InstrumentToolOptions = {},
): F {
  if (typeof fn !== 'function') {
    throw new TypeError(
      `instrumentTool: expected a function to wrap, got ${fn === null ? 'null' : typeof fn}`,
    );
  }
  const base = typeof info === 'string' ? { name: info } : info;
  if (typeof base?.name !== 'string' || base.name === '') {
    throw new TypeError('instrumentTool: the tool needs a non-empty name (a string, or { name })');
  }
  checkCaptureOptions(options, 'instrumentTool');
  const { tracerProvider, classifyResult, ...config } = options;
  const callOptions: ToolCallOptions = classifyResult ? { classifyResult } : {};
  // The global provider hands out a proxy tracer, which follows a provider registered later.
  const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer(
    INSTRUMENTATION_NAME,
    INSTRUMENTATION_VERSION,
  );
  // Copied field by field rather than spread into each call's info (BENCHMARKS.md, case 3).
  const { name, callId, description, type } = base;
  const trace_ = (self: unknown, args: unknown[]) =>
    traceFunctionCall(
      tracer,
      config,
      { name, callId, description, type, args: args[0] },
      fn,
      self,
      args,
      callOptions,
    );

  const wrapped = wrapperFor(fn, trace_);
  // Same [[Prototype]] as `fn` (AsyncFunction, AsyncGeneratorFunction…): frameworks pick how to
  // run a tool by it, e.g. VoltAgent streams an `execute` whose constructor is AsyncGeneratorFunction.
  Object.setPrototypeOf(wrapped, Object.getPrototypeOf(fn));
  withNameAndLength(wrapped, fn);
  if ('prototype' in fn && 'prototype' in wrapped)
    (wrapped as { prototype: unknown }).prototype = (fn as { prototype: unknown }).prototype;
  for (const key of Reflect.ownKeys(fn)) {
    if (FUNCTION_KEYS.has(key)) continue;
    Object.defineProperty(wrapped, key, Object.getOwnPropertyDescriptor(fn, key)!);
  }
  return wrapped as F;
}

/**
 * A wrapper as constructible as `fn`. A method-shorthand wrapper has no `prototype` and cannot be
 * `new`ed, like arrow and async functions; a `function` wrapper stands in for constructible
 * functions, and a bound one for bound functions, which are constructible without a `prototype`.
 */
function wrapperFor(fn: ToolFunction, trace_: (self: unknown, args: unknown[]) => unknown): ToolFunction {
  if (!isConstructor(fn)) {
    return {
      tool(this: unknown, ...args: unknown[]) {
        return trace_(this, args);
      },
    }.tool;
  }
  const construct = function (this: unknown, ...args: unknown[]) {
    return new.target ? Reflect.construct(fn, args, new.target) : trace_(this, args);
  };
  if ('prototype' in fn) return construct;
  // `new` on a bound function passes its target as `new.target`: construct `fn` itself then, so
  // the instance gets the prototype `new fn()` gives. A bound `fn` ignores `this` anyway.
  const bound = function (this: unknown, ...args: unknown[]) {
    if (!new.target) return trace_(this, args);
    return new.target === bound ? Reflect.construct(fn, args) : Reflect.construct(fn, args, new.target);
  };
  return bound.bind(undefined);
}

/** Whether `fn` can be called with `new`, found without calling it. */
function isConstructor(fn: ToolFunction): boolean {
  if ('prototype' in fn) return true;
  try {
    Reflect.construct(Object, [], fn);
    return true;
  } catch {
    return false;
  }
}
