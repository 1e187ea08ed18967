import { read } from '../classify/safe';
import type { ExportShape } from './adapters/adapter';

/**
 * What of `shape` a module's exports lack, as `name` or `Class.prototype.method`: empty when
 * everything a patch wraps is there and is a function. Reads through getters without letting one
 * throw.
 */
export function missingFromShape(exports: unknown, shape: ExportShape | undefined): string[] {
  if (!shape) return [];
  const missing: string[] = [];
  for (const name of shape.functions ?? []) {
    if (typeof read(exports, name) !== 'function') missing.push(name);
  }
  for (const [className, methods] of Object.entries(shape.prototypes ?? {})) {
    const prototype = read(read(exports, className), 'prototype');
    for (const method of methods) {
      if (typeof read(prototype, method) !== 'function') missing.push(`${className}.prototype.${method}`);
    }
  }
  return missing;
}
