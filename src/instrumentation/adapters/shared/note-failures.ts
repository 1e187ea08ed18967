import { context } from '@opentelemetry/api';
import { types } from 'node:util';
import { recordToolError } from '../../tool-call/trace-tool-call';
import { withNameAndLength } from '../../name-and-length';
import type { AnyFunction } from '../adapter';

/**
 * What one call of a noting function may add: `failure` names what went wrong (an abort's reason
 * rather than the abort error it caused), `settled` runs once the call has returned or settled.
 */
export interface NotedCall {
  failure?(err: unknown): unknown;
  settled?(): void;
}

/**
 * `fn`, noting what it throws (or rejects with) on the tool call in progress. For frameworks that
 * catch a tool's error and pass on something poorer (ADK's `Error("Error in tool …")`,
 * LlamaIndex's bare text, OpenAI Agents' fixed text): the span still gets the real error.
 * `watchCall`, given each call's arguments and a `note` bound to the call's context, may return
 * what that call adds, or `null` to run it untouched. Only native promises are watched: calling
 * `then` on another thenable could start its work.
 */
export function noteFailures(
  fn: AnyFunction,
  watchCall?: (args: unknown[], note: (err: unknown) => void) => NotedCall | null,
): AnyFunction {
  const noting = function (this: unknown, ...args: unknown[]) {
    const note = context.bind(context.active(), recordToolError);
    const call = watchCall ? watchCall(args, note) : {};
    if (call === null) return Reflect.apply(fn, this, args);
    const fail = (err: unknown) => {
      call.settled?.();
      note(call.failure ? call.failure(err) : err);
    };
    try {
      const result = Reflect.apply(fn, this, args);
      if (types.isPromise(result)) result.then(call.settled, fail);
      else call.settled?.();
      return result;
    } catch (err) {
      fail(err);
      throw err;
    }
  };
  return withNameAndLength(noting, fn);
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
