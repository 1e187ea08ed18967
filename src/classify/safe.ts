import { types } from 'node:util';

/**
 * Property reads that never throw. Errors come from anywhere: Proxies with throwing traps,
 * getters that throw, frozen or null-prototype objects. The classifier must survive them all.
 */

export function isObjectLike(value: unknown): value is Record<PropertyKey, unknown> {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

export function read(target: unknown, key: PropertyKey): unknown {
  if (!isObjectLike(target)) return undefined;
  try {
    return target[key];
  } catch {
    return undefined;
  }
}

/** Whether `target` has an own property `key`, without reading it; false where asking throws (a Proxy's trap). */
export function hasOwn(target: object, key: PropertyKey): boolean {
  try {
    return Object.prototype.hasOwnProperty.call(target, key);
  } catch {
    return false;
  }
}

export function readString(target: unknown, key: PropertyKey): string | undefined {
  const value = read(target, key);
  return typeof value === 'string' ? value : undefined;
}

export function readNumber(target: unknown, key: PropertyKey): number | undefined {
  const value = read(target, key);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  // Some clients keep numeric codes as strings ("429").
  if (typeof value === 'string' && value.length <= 3 && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** The name of the object's class, without running anything but a prototype walk. */
export function className(target: unknown): string | undefined {
  const ctor = read(target, 'constructor');
  const name = read(ctor, 'name');
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** A header value from a fetch `Headers`, an axios `AxiosHeaders` or a plain (any-case) record. */
export function readHeader(headers: unknown, name: string): string | undefined {
  if (!isObjectLike(headers)) return undefined;
  const get = read(headers, 'get');
  if (typeof get === 'function') {
    try {
      const value: unknown = get.call(headers, name);
      if (value !== null && value !== undefined) return String(value);
    } catch {
      // fall through to the record form
    }
  }
  const direct = read(headers, name);
  if (typeof direct === 'string' || typeof direct === 'number') return String(direct);
  return undefined;
}

/**
 * An own data property of a plain (non-Proxy) object, without running anything: no getter, no
 * Proxy trap. For objects the app keeps using (a tool's returned result), where reading must not
 * have effects.
 */
export function readOwnData(target: unknown, key: PropertyKey): unknown {
  if (!isObjectLike(target) || types.isProxy(target)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

export function readOwnString(target: unknown, key: PropertyKey): string | undefined {
  const value = readOwnData(target, key);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether `value` is an error by its brand (`[[ErrorData]]`): true for errors from another realm
 * (`vm` contexts, iframes), which fail `instanceof Error`. Objects that only inherit from
 * `Error.prototype` count too.
 */
export function isError(value: unknown): value is Error {
  if (types.isNativeError(value)) return true;
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}
