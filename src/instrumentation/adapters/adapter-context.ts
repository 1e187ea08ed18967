import type { Tracer } from '@opentelemetry/api';
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import { dirname } from 'node:path';
import { logger } from '../../logger';
import {
  ANY_RELEASE,
  isPatched,
  withTestedRange,
  type FrameworkSupport,
  type PatchPoint,
} from '../framework-support';
import { watchLoadedFile } from '../loaded-file-watch';
import { manifestAbove, versionOf } from '../package-manifest';
import { OwnWrappers } from '../two-instances';
import type { ToolCallOptions, ToolCallSettings } from '../tool-call/options';
import { traceToolCall } from '../tool-call/trace-tool-call';
import type { ToolCallInfo, ToolInstrumentationConfig } from '../types';
import { isObjectLike, read } from '../../classify/safe';
import {
  textOrUndefined,
  type AdapterContext,
  type AnyFunction,
  type ExportShape,
  type ExportWrappers,
  type FrameworkAdapter,
  type ModulePatch,
  type PackageDeclaration,
  type ToolCallFields,
} from './adapter';

/** Where the context reads its instrumentation's state: live, since tracer and config may change. */
export interface InstrumentationState {
  tracer(): Tracer;
  config(): ToolInstrumentationConfig;
  isEnabled(): boolean;
  /** The releases the instrumentation's adapters declared and found. */
  support: FrameworkSupport;
}

/** The context of one adapter of a `ToolInstrumentation`. */
export function createAdapterContext(state: InstrumentationState, adapter: FrameworkAdapter): AdapterContext {
  const wrappers = new OwnWrappers(state.isEnabled);
  const { support } = state;
  return {
    diag: logger,
    traceToolCall: (fields, run, options) =>
      traceToolCall(state.tracer(), state.config(), toolCallInfo(fields), run, withSignal(options, fields)),
    wrap: (target, name, wrapper) => wrappers.wrap(target, name, wrapper as (original: unknown) => unknown),
    wrapExports: (exportWrappers) => ({
      expects: shapeOf(exportWrappers),
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
    patchPackage: (name, patch) => {
      const { tested, files } = declaredPackage(adapter, name);
      if (files !== undefined)
        throw new Error(`${adapter.name} declares files of ${name}: patchFiles patches them`);
      const point = support.declare({ adapter, name, tested });
      const { patch: onLoad, unpatch } = guarded(support, point, name, patch);
      return withTestedRange(
        new InstrumentationNodeModuleDefinition(name, ANY_RELEASE, onLoad, unpatch),
        tested,
      );
    },
    patchFiles: (name, files) => {
      const { tested, files: declared = [] } = declaredPackage(adapter, name);
      const given = files.map((file) => JSON.stringify(file.files));
      if (
        given.length !== declared.length ||
        !declared.every((builds) => given.includes(JSON.stringify(builds)))
      )
        throw new Error(`${adapter.name} patches files of ${name} other than it declares`);
      const point = support.declare({ adapter, name, tested, files: declared });
      const hooks = files.flatMap((file) =>
        file.files.map((path) => {
          const { patch, unpatch } = guarded(support, point, path, file);
          return new InstrumentationNodeModuleFile(path, ANY_RELEASE, patch, unpatch);
        }),
      );
      return withTestedRange(
        new InstrumentationNodeModuleDefinition(name, ANY_RELEASE, undefined, undefined, hooks),
        tested,
      );
    },
    watchFile: (name, filename, patch) => {
      const point = support.declare({ adapter, name, tested: declaredPackage(adapter, name).tested });
      const { patch: onLoad, unpatch } = guarded(support, point, filename, patch);
      return watchLoadedFile(filename, {
        patch: (exports) => onLoad(exports, versionAbove(filename, name)),
        unpatch: (exports) => unpatch(exports),
      });
    },
  };
}

/** Package `name` as the adapter declares it; throws for a package it does not declare. */
function declaredPackage(adapter: FrameworkAdapter, name: string): PackageDeclaration {
  const declared = adapter.packages.find((declaration) => declaration.name === name);
  if (declared === undefined) throw new Error(`${adapter.name} patches ${name}, which it does not declare`);
  return declared;
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
 * The patch as the instrumentation base calls it: only for a release `support` admits, returning
 * the exports the app gets, logging each application with the module's version, and never
 * throwing into the app's `require`.
 */
function guarded(
  support: FrameworkSupport,
  point: PatchPoint,
  module: string,
  { patch, unpatch, expects }: ModulePatch,
) {
  return {
    patch: (exports: unknown, moduleVersion?: string) => {
      try {
        const release = support.admit(point, moduleVersion, exports, expects);
        if (!isPatched(release)) return exports;
        const patched: unknown = patch(exports);
        release.undo.push(() => unpatch(exports));
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

/** What `wrapExports` wraps: all of it must be there. */
function shapeOf({ prototypes = {}, functions = {} }: ExportWrappers): ExportShape {
  return {
    functions: Object.keys(functions),
    prototypes: Object.fromEntries(
      Object.entries(prototypes).map(([className, methods]) => [className, Object.keys(methods)]),
    ),
  };
}

/** The version of package `name` that `filename` belongs to: the nearest package.json of that name. */
function versionAbove(filename: string, name: string): string | undefined {
  return versionOf(manifestAbove(dirname(filename), (manifest) => manifest.name === name));
}

/**
 * The options, with the abort signal the framework handed the call and its own attempt number,
 * when it handed them.
 */
function withSignal(
  options: ToolCallOptions | undefined,
  { callerSignal, frameworkAttempt }: ToolCallFields,
): ToolCallSettings | undefined {
  if (typeof frameworkAttempt === 'number' && frameworkAttempt > 1)
    return { ...options, callerSignal, frameworkAttempt };
  return callerSignal === undefined ? options : { ...options, callerSignal };
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
