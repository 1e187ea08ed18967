import { CANCEL_EVIDENCE, CLASS_EVIDENCE, CODE_EVIDENCE, type EvidenceSource } from './evidence';
import type { Finding } from './evidence-source';
import { kindForCode } from './codes';
import { kindForHttpStatus } from './http';
import type { ToolErrorKind } from './kinds';
import { REASON_PHRASES, systemErrorCodeIn } from './message';
import { saysQuota, saysRateLimited } from './throttle-text';

/**
 * What a class name says by its last part, in any language: `HttpServerErrorException$ServiceUnavailable`
 * (Spring), `FeignException$TooManyRequests`, `NotFoundException` (JAX-RS), `TooManyRequests`
 * (google-api-core) name an HTTP status by its reason phrase; a few connection classes stand for
 * one system error code where their text often says nothing (`java.net.ConnectException` has a
 * null message when the JDK's HttpClient is refused).
 */

/** The last part of a qualified class name: after its package (`.`) and its outer class (`$`). */
export function simpleClassName(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('.'), name.lastIndexOf('$')) + 1);
}

/** The reason phrases in CamelCase (`ServiceUnavailable`: 503), as classes are named for them. */
const STATUS_CLASS_NAMES: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(
    Object.entries(REASON_PHRASES).map(([phrase, status]) => [
      phrase.replace(/(?:^| )([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
      status,
    ]),
  ),
);

/** The class name's suffix that says it is an error, not what error. */
const ERROR_SUFFIX = /(?:Error|Exception)$/;

/** The status a class is named for: its last part is a reason phrase, with or without `Error` / `Exception`. */
export function statusForClassName(name: string): number | undefined {
  const simple = simpleClassName(name);
  const bare = simple.replace(ERROR_SUFFIX, '');
  return own(STATUS_CLASS_NAMES, simple) ?? own(STATUS_CLASS_NAMES, bare);
}

/**
 * Classes that stand for one system error code, by their last part, where no other shape serves:
 * the JDK documents `ConnectException` as "typically, the connection was refused remotely",
 * and `UnknownHostException` carries only the host name as its message.
 */
const CLASS_CODES: Readonly<Record<string, string>> = Object.freeze({
  ConnectException: 'ECONNREFUSED',
  UnknownHostException: 'ENOTFOUND',
  NoRouteToHostException: 'EHOSTUNREACH',
});

/** The system error code a class stands for, if it is one of `CLASS_CODES`. */
export function codeForClassName(name: string): string | undefined {
  return own(CLASS_CODES, simpleClassName(name));
}

/**
 * What a class's last part says: a status it is named for (`HttpClientErrorException$TooManyRequests`),
 * its 429 decided by the text's words, or the code it stands for; `undefined` when neither.
 */
export function findClassByLastPart(name: string, message: string | undefined): Finding | undefined {
  const status = statusForClassName(name);
  if (status !== undefined) {
    const kind = kindForHttpStatus(status, {
      rateLimited: saysRateLimited(message),
      quota: saysQuota(message),
    });
    if (kind) {
      return { source: CLASS_EVIDENCE, kind, errorType: String(status), httpStatus: status, byName: true };
    }
  }
  // The class's code stands in for a text that names none: `ConnectException: Connection timed out` is a timeout.
  const classCode = codeForClassName(name);
  const code = classCode && ((message && systemErrorCodeIn(message)) || classCode);
  const kind = code === undefined ? undefined : kindForCode(code, message);
  return kind
    ? { source: classEvidence(kind), kind, errorType: kind === 'timeout' ? 'timeout' : code, byName: true }
    : undefined;
}

/** A class named for a timeout or a network failure says what a code would (a DOMException `TimeoutError`). */
export function classEvidence(kind: ToolErrorKind): EvidenceSource {
  if (kind === 'canceled') return CANCEL_EVIDENCE;
  return kind === 'timeout' || kind === 'network' ? CODE_EVIDENCE : CLASS_EVIDENCE;
}

function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}
