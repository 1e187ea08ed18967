import type { Tracer } from '@opentelemetry/api';
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import { logger } from '../../logger';
import { watchLoadedFile } from '../loaded-file-watch';
import { OwnWrappers } from '../own-wrappers';
import { traceToolCall } from '../tool-call/trace-tool-call';
import type { ToolCallInfo, ToolInstrumentationConfig } from '../types';
import { isObjectLike, read } from '../../classify/safe';
import {
  textOrUndefined,
  type AdapterContext,
  type AnyFunction,
  type ExportWrappers,
  type ModulePatch,
  type ToolCallFields,
} from './adapter';

/** Where the context reads its instrumentation's state: live, since tracer and config may change. */
export interface InstrumentationState {
  tracer(): Tracer;
  config(): ToolInstrumentationConfig;
  isEnabled(): boolean;
}

/** The context every adapter of one `ToolInstrumentation` shares. */
export function createAdapterContext(state: InstrumentationState): AdapterContext {
  const wrappers = new OwnWrappers(state.isEnabled);
  return {
    diag: logger,
    traceToolCall: (fields, run, options) =>
      traceToolCall(state.tracer(), state.config(), toolCallInfo(fields), run, options),
    wrap: (target, name, wrapper) => wrappers.wrap(target, name, wrapper as (original: unknown) => unknown),
    wrapExports: (exportWrappers) => ({
      patch: (exports) => {
        for (const [target, methods] of wrapTargets(exports, exportWrappers)) {
          for (const [method, wrapper] of Object.entries(methods)) {
            if (typeof target[method] === 'function')
              wrappers.wrap(target, method, wrapper as (original: unknown) => unknown);
          }
        }
      },
      unpatch: (exports) => {
        for (const [target, methods] of wrapTargets(exports, exportWrappers)) {
          for (const method of Object.keys(methods)) wrappers.unwrap(target, method);
        }
      },
    }),
    unwrap: (target, name) => wrappers.unwrap(target, name),
    isEnabled: state.isEnabled,
    patchPackage: (name, supported, patch) => {
      const { patch: onLoad, unpatch } = logged(name, patch);
      return new InstrumentationNodeModuleDefinition(name, [...supported], onLoad, unpatch);
    },
    patchFiles: (name, supported, files) =>
      new InstrumentationNodeModuleDefinition(
        name,
        [...supported],
        undefined,
        undefined,
        files.flatMap((file) =>
          file.files.map((path) => {
            const { patch, unpatch } = logged(path, file);
            return new InstrumentationNodeModuleFile(path, [...supported], patch, unpatch);
          }),
        ),
      ),
    watchFile: (filename, patch) => watchLoadedFile(filename, logged(filename, patch)),
  };
}

type Methods = Record<string, (original: AnyFunction) => AnyFunction>;

/** The objects `wrappers` name in `exports` (class prototypes, the exports themselves) with their methods. */
function wrapTargets(exports: unknown, { prototypes = {}, functions }: ExportWrappers) {
  const targets: Array<[Record<string, unknown>, Methods]> = [];
  for (const [className, methods] of Object.entries(prototypes)) {
    const prototype = read(read(exports, className), 'prototype');
    if (isObjectLike(prototype)) targets.push([prototype as Record<string, unknown>, methods]);
  }
  if (functions && isObjectLike(exports)) targets.push([exports as Record<string, unknown>, functions]);
  return targets;
}

/**
 * The patch as the instrumentation base calls it: returning the exports the app gets, logging
 * each application with the module's version, and never throwing into the app's `require`.
 */
function logged(module: string, { patch, unpatch }: ModulePatch) {
  return {
    patch: (exports: unknown, moduleVersion?: string) => {
      try {
        const patched: unknown = patch(exports);
        logger.debug(`patched ${module}${moduleVersion ? `@${moduleVersion}` : ''}`);
        return patched ?? exports;
      } catch (err) {
        logger.error(`could not patch ${module}`, err);
        return exports;
      }
    },
    unpatch: (exports: unknown, moduleVersion?: string) => {
      try {
        unpatch(exports);
        logger.debug(`unpatched ${module}${moduleVersion ? `@${moduleVersion}` : ''}`);
      } catch (err) {
        logger.error(`could not unpatch ${module}`, err);
      }
    },
  };
}

/** The fields the span records: ids and descriptions only when they are strings with content. */
function toolCallInfo(fields: ToolCallFields): ToolCallInfo {
  // A literal, not a rest/spread copy: this runs on every tool call.
  return {
    name: fields.name,
    callId: textOrUndefined(fields.callId),
    description: textOrUndefined(fields.description),
    type: fields.type,
    args: fields.args,
    attributes: fields.attributes,
  };
}
