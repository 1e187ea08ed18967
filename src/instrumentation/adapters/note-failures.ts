import { context } from '@opentelemetry/api';
import { types } from 'node:util';
import { recordToolError } from '../tool-call/trace-tool-call';

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/**
 * The same function, noting what it throws (or rejects with) on the tool call in progress. For
 * frameworks that catch a tool's error and pass on something poorer (ADK's
 * `Error("Error in tool …")`, LlamaIndex's bare text): the span still gets the real error.
 * Only native promises are watched: calling `then` on another thenable could start its work.
 */
export function noteFailures(fn: AnyFunction): AnyFunction {
  const noting = function (this: unknown, ...args: unknown[]) {
    const note = context.bind(context.active(), recordToolError);
    try {
      const result = Reflect.apply(fn, this, args);
      if (types.isPromise(result)) result.then(undefined, note);
      return result;
    } catch (err) {
      note(err);
      throw err;
    }
  };
  Object.defineProperty(noting, 'name', { value: fn.name, configurable: true });
  Object.defineProperty(noting, 'length', { value: fn.length, configurable: true });
  return noting;
}

/**
 * Replaces the own, writable method `target[key]` with its noting twin, once per object
 * (`noted` remembers the objects already done).
 */
export function noteOwnMethodFailures(target: object, key: string, noted: WeakSet<object>): void {
  if (noted.has(target)) return;
  noted.add(target);
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (typeof descriptor?.value !== 'function' || !descriptor.writable) return;
  (target as Record<string, unknown>)[key] = noteFailures(descriptor.value as AnyFunction);
}
