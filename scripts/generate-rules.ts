/**
 * Writes rules/tool-errors.json: the classifier's tables as data, for the collector processor
 * (collector/toolerrorprocessor embeds a copy) and any other implementation. Everything is read
 * from the TypeScript sources, as they compute it; the Python tables and the span families come
 * from scripts/rules/. test/rules/rules-file.test.ts fails when the checked-in files differ from
 * what this writes now.
 *
 *   npm run rules:generate
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { TOOL_ERROR_KIND_MEANINGS } from '../src/classify/kinds';
import { EVIDENCE_ORDER } from '../src/classify/evidence';
import { kindForHttpStatus, parseRetryAfter } from '../src/classify/http';
import {
  kindForCanonicalStatus,
  kindForCode,
  kindForJsonRpcCode,
  kindForName,
  UNKNOWN_TOOL_TEXT,
} from '../src/classify/codes';
import { kindForSqlState } from '../src/classify/database';
import { codeForClassName, statusForClassName } from '../src/classify/class-name';
import { causesInStack } from '../src/classify/stack-causes';
import { MAX_SCANNED_MESSAGE_LENGTH } from '../src/classify/message';
import {
  DEFAULT_ERROR_TYPE_IDLE_MS,
  DEFAULT_MAX_ERROR_TYPES,
  sanitizeErrorType,
} from '../src/classify/error-type';
import { MAX_EXCEPTION_TEXT_LENGTH, MAX_STATUS_MESSAGE_LENGTH, REDACTED } from '../src/redact/text';
import * as semconv from '../src/semconv';
import { moduleTables } from './rules/module-tables';
import {
  PYTHON_BUILTIN_CLASSES,
  PYTHON_CLASSES,
  PYTHON_PAUSES,
  PYTHON_RETRY_DELAY,
  PYTHON_STATUS_MESSAGES,
} from './rules/python-errors';
import type { SpanFamily } from '../src/tool-span/families/family';
import { GENAI } from '../src/tool-span/families/genai';
import { SPAN_FAMILIES } from '../src/tool-span/families/list';
import { OTHER_LANGUAGE_FAMILIES, OTHER_LANGUAGE_GENAI_FAMILIES } from './rules/other-language-families';

const ROOT = resolve(__dirname, '..');
export const RULES_FILE = join(ROOT, 'rules/tool-errors.json');
/** The processor embeds its own copy: `go:embed` reads only files under its module. */
export const EMBEDDED_RULES_FILE = join(ROOT, 'collector/toolerrorprocessor/internal/rules/tool-errors.json');

const src = (path: string) => join(ROOT, 'src', path);

/** A regular expression as RE2 (Go's `regexp`) reads it; refuses what RE2 lacks. */
interface Pattern {
  readonly pattern: string;
  readonly ignoreCase?: true;
}

function re2(regex: RegExp): Pattern {
  if (/\(\?<?[=!]|\\[1-9]|\\k</.test(regex.source)) {
    throw new Error(`not RE2-compatible (lookaround or back-reference): /${regex.source}/`);
  }
  // RE2 allows repeat counts up to 1000. Such a bound is there to keep V8's backtracking short;
  // RE2 runs in linear time without it, so a larger upper bound is dropped (`{1,2048}` -> `{1,}`).
  const source = regex.source.replace(/\{(\d+),(\d{4,})\}/g, (bound, min: string, max: string) =>
    Number(max) > 1000 ? `{${min},}` : bound,
  );
  return regex.flags.includes('i') ? { pattern: source, ignoreCase: true } : { pattern: source };
}

function sorted(values: Iterable<string>): string[] {
  return [...values].sort();
}

/**
 * Statuses 100-599 by kind, as runs of equal answers: with no evidence about a throttle, and with
 * quota evidence (a quota code or words) and no rate-limit evidence, which outranks it.
 */
function httpStatuses() {
  const runs: Array<{ from: number; to: number; kind: string; kindWithQuotaEvidence?: string }> = [];
  for (let status = 100; status <= 599; status++) {
    const kind = kindForHttpStatus(status);
    const withQuota = kindForHttpStatus(status, { quota: true });
    if (kind === undefined) continue;
    check(
      kindForHttpStatus(status, { quota: true, rateLimited: true }) === kind,
      `rate limit wins at ${status}`,
    );
    const last = runs[runs.length - 1];
    const differs = withQuota !== kind ? withQuota : undefined;
    if (last && last.to === status - 1 && last.kind === kind && last.kindWithQuotaEvidence === differs) {
      last.to = status;
    } else {
      runs.push(
        differs
          ? { from: status, to: status, kind, kindWithQuotaEvidence: differs }
          : { from: status, to: status, kind },
      );
    }
  }
  return runs;
}

function jsonRpcCodes() {
  const codes: Array<{ code: number; kind: string }> = [];
  for (let code = -32768; code <= -32000; code++) {
    const kind = kindForJsonRpcCode(code);
    if (kind) codes.push({ code, kind });
  }
  return codes;
}

const CANONICAL_STATUSES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

function canonicalStatuses(): Record<string, string> {
  const table: Record<string, string> = {};
  for (const status of CANONICAL_STATUSES) {
    const kind = kindForCanonicalStatus(status);
    if (kind) table[status] = kind;
  }
  return table;
}

/** SQLSTATE classes (the first two characters), and the exact codes that differ from their class. */
function sqlStates() {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const classes: Record<string, string> = {};
  for (const a of alphabet)
    for (const b of alphabet) {
      const kind = kindForSqlState(`${a}${b}000`);
      if (kind) classes[`${a}${b}`] = kind;
    }
  const exact: Record<string, string> = {};
  for (let n = 0; n < 100000; n++) {
    const code = String(n).padStart(5, '0');
    const kind = kindForSqlState(code);
    if (kind !== undefined && kind !== classes[code.slice(0, 2)]) exact[code] = kind;
  }
  return { classes, exact };
}

/** Asserts that a table read from a module agrees with the module's exported function. */
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`generate-rules: ${what}`);
}

export function buildRules(): Record<string, unknown> {
  const codes = moduleTables(src('classify/codes.ts'), [
    'TIMEOUT_CODES',
    'NETWORK_CODES',
    'CANCEL_CODES',
    'NAMED_KINDS',
    'NAME_PARTS',
  ]);
  const http = moduleTables(src('classify/http.ts'), ['QUOTA_CODES', 'GOOGLE_RETRY_DELAY']);
  const message = moduleTables(src('classify/message.ts'), [
    'MCP_CODE',
    'HTTP_STATUS_PHRASINGS',
    'REASON_PHRASES',
    'SETTINGS',
    'URLS',
    'NODE_CODE',
    'SYSTEM_ERROR_TEXTS',
    'SYSTEM_ERROR_TEXT',
    'FAMILIES',
  ]);
  const throttleText = moduleTables(src('classify/throttle-text.ts'), [
    'RETRY_DELAY_TEXT',
    'RATE_LIMIT_TEXT',
    'QUOTA_TEXT',
  ]);
  const errorType = moduleTables(src('classify/error-type.ts'), ['MAX_ERROR_TYPE_LENGTH', 'ALWAYS_ALLOWED']);
  const throttling = moduleTables(src('classify/throttling.ts'), ['THROTTLING_NAME']);
  const clients = moduleTables(src('classify/clients.ts'), ['AWS_AUTH_NAMES']);
  const database = moduleTables(src('classify/database.ts'), [
    'MYSQL_CODES',
    'MONGO_CODES',
    'MONGO_RETRYABLE_LABELS',
    'REDIS_PREFIXES',
  ]);
  const className = moduleTables(src('classify/class-name.ts'), [
    'STATUS_CLASS_NAMES',
    'ERROR_SUFFIX',
    'CLASS_CODES',
  ]);
  const stackCauses = moduleTables(src('classify/stack-causes.ts'), [
    'STACK_CAUSE_LINE',
    'MAX_STACK_READ',
    'MAX_STACK_CAUSES',
  ]);
  const classifyError = moduleTables(src('classify/classify-error.ts'), [
    'UNINFORMATIVE_CLASSES',
    'MAX_LINKS',
  ]);
  const text = moduleTables(src('redact/text.ts'), [
    'SECRET_KEY_WORDS',
    'SECRET_PATTERNS',
    'MAY_HOLD_SECRET_EXACT_CASE',
    'MAY_HOLD_SECRET_ANY_CASE',
    'MIN_OPAQUE_RUN',
    'FRAME_LINE',
    'FRAME_MARKER',
    'FRAME_LINE_START',
  ]);
  const exception = moduleTables(src('redact/exception.ts'), ['ATTR_EXCEPTION_STACKTRACE']);
  const spanEvidence = moduleTables(src('processor/span-evidence.ts'), [
    'MAX_RESULT_LENGTH',
    'ERROR_RESULT_HINT',
  ]);

  const timeoutCodes = codes.TIMEOUT_CODES as Set<string>;
  const networkCodes = codes.NETWORK_CODES as Set<string>;
  const cancelCodes = codes.CANCEL_CODES as Set<string>;
  const namedKinds = codes.NAMED_KINDS as Record<string, string>;
  for (const code of timeoutCodes) check(kindForCode(code, undefined) === 'timeout', `timeout code ${code}`);
  for (const code of networkCodes) check(kindForCode(code, undefined) === 'network', `network code ${code}`);
  for (const code of cancelCodes) check(kindForCode(code, undefined) === 'canceled', `cancel code ${code}`);
  for (const prefix of ['ERR_SSL_', 'ERR_TLS_'])
    check(kindForCode(`${prefix}X`, undefined) === 'network', prefix);
  check(kindForCode('ECONNABORTED', 'timeout of 5ms exceeded') === 'timeout', 'ECONNABORTED with timeout');
  check(kindForCode('ECONNABORTED', 'aborted') === 'network', 'ECONNABORTED without timeout');
  for (const [name, kind] of Object.entries(namedKinds)) check(kindForName(name) === kind, `class ${name}`);
  check(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }) === 1500, 'retry-after-ms first');
  check(sanitizeErrorType('a b/c') === 'a_b_c', 'sanitizeErrorType');
  check(statusForClassName('a.B$ServiceUnavailable') === 503, 'a status class by its last part');
  check(statusForClassName('a.NotFoundException') === 404, 'a status class with its suffix');
  check(codeForClassName('java.net.ConnectException') === 'ECONNREFUSED', 'a class that stands for a code');
  check(
    causesInStack('E: a\n\tat f(F.java:1)\nCaused by: b.C: d\nCaused by: e.F')?.cause?.name === 'e.F',
    'causes in a stack, outermost first',
  );

  const families = message.FAMILIES as ReadonlyArray<readonly [string, RegExp]>;
  const pythonNames = new Set<string>();
  for (const entry of PYTHON_CLASSES) {
    check(!pythonNames.has(entry.name), `Python class ${entry.name} listed twice`);
    pythonNames.add(entry.name);
    const js = namedKinds[entry.name];
    check(
      js === undefined || js === entry.kind,
      `Python class ${entry.name} disagrees with JavaScript's ${js}`,
    );
  }

  return {
    $comment:
      'Generated by `npm run rules:generate` (scripts/generate-rules.ts) from src/classify, src/redact and scripts/rules; do not edit. Patterns are RE2 syntax (upper repeat bounds over 1000 dropped); ignoreCase means the (?i) flag.',
    version: 1,
    attributes: {
      errorType: semconv.ATTR_ERROR_TYPE,
      kind: semconv.ATTR_TOOL_ERROR_KIND,
      retryable: semconv.ATTR_TOOL_ERROR_RETRYABLE,
      executed: semconv.ATTR_TOOL_ERROR_EXECUTED,
      detailType: semconv.ATTR_TOOL_ERROR_DETAIL_TYPE,
      frameworkType: semconv.ATTR_TOOL_ERROR_FRAMEWORK_TYPE,
      callOutcome: semconv.ATTR_TOOL_CALL_OUTCOME,
      toolCallResult: semconv.ATTR_GEN_AI_TOOL_CALL_RESULT,
      exceptionType: semconv.ATTR_EXCEPTION_TYPE,
      exceptionMessage: semconv.ATTR_EXCEPTION_MESSAGE,
      exceptionStacktrace: exception.ATTR_EXCEPTION_STACKTRACE,
      httpResponseStatusCode: [semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, semconv.ATTR_HTTP_STATUS_CODE_OLD],
      httpRequestMethod: [semconv.ATTR_HTTP_REQUEST_METHOD, semconv.ATTR_HTTP_METHOD_OLD],
      retryAfter: [
        semconv.ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER,
        semconv.ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_OLD,
      ],
      retryAfterMs: [
        semconv.ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_MS,
        semconv.ATTR_HTTP_RESPONSE_HEADER_RETRY_AFTER_MS_OLD,
      ],
      errorTypeOther: semconv.ERROR_TYPE_VALUE_OTHER,
      errorTypeToolError: semconv.ERROR_TYPE_VALUE_TOOL_ERROR,
    },
    kinds: Object.values(TOOL_ERROR_KIND_MEANINGS).map((row) => ({ ...row })),
    evidenceOrder: EVIDENCE_ORDER.map((row) => ({ ...row })),
    http: {
      statuses: httpStatuses(),
      quotaCodes: re2(http.QUOTA_CODES as RegExp),
      googleRetryDelay: re2(http.GOOGLE_RETRY_DELAY as RegExp),
    },
    codes: {
      timeout: sorted(timeoutCodes),
      network: sorted(networkCodes),
      networkPrefixes: ['ERR_SSL_', 'ERR_TLS_'],
      cancel: sorted(cancelCodes),
      // axios: ECONNABORTED is its own timeout when the message says so, else a network failure.
      timeoutOrNetwork: {
        code: 'ECONNABORTED',
        timeoutWhenMessage: { pattern: 'timeout', ignoreCase: true },
      },
      jsonRpc: jsonRpcCodes(),
      jsonRpcUnknownTool: { code: -32602, message: re2(UNKNOWN_TOOL_TEXT) },
      canonicalStatuses: canonicalStatuses(),
      throttlingNames: re2(throttling.THROTTLING_NAME as RegExp),
    },
    classes: {
      names: Object.fromEntries(Object.entries(namedKinds).sort(([a], [b]) => a.localeCompare(b))),
      // For a name ending in Error or Exception that no table lists: the first part that matches.
      nameParts: (codes.NAME_PARTS as ReadonlyArray<readonly [string, RegExp]>).map(([kind, pattern]) => ({
        kind,
        ...re2(pattern),
      })),
      // A class's last part (after its last `.` or `$`), or that part without the suffix (once),
      // equal to one of these names the status; else the code a class stands for, by its last part.
      statusNames: className.STATUS_CLASS_NAMES,
      errorSuffix: re2(className.ERROR_SUFFIX as RegExp),
      codes: className.CLASS_CODES,
      // An exception's stacktrace, line by line over its head: each `Caused by:` line (group 1 the
      // class, group 2 its message) is one more link of its cause chain, outermost first.
      stackCauseLine: re2(stackCauses.STACK_CAUSE_LINE as RegExp),
      maxStackRead: stackCauses.MAX_STACK_READ,
      maxStackCauses: stackCauses.MAX_STACK_CAUSES,
      uninformative: sorted(classifyError.UNINFORMATIVE_CLASSES as Set<string>),
      awsAuthNames: sorted(clients.AWS_AUTH_NAMES as Set<string>),
      maxCauseLinks: classifyError.MAX_LINKS,
    },
    database: {
      sqlStates: sqlStates(),
      mysqlCodes: database.MYSQL_CODES,
      mongoCodes: database.MONGO_CODES,
      mongoRetryableLabels: database.MONGO_RETRYABLE_LABELS,
      redisPrefixes: database.REDIS_PREFIXES,
    },
    messages: {
      maxScannedLength: MAX_SCANNED_MESSAGE_LENGTH,
      // Removed (replaced by a space) from a text before anything in it is read.
      urls: re2(message.URLS as RegExp),
      mcpCode: re2(message.MCP_CODE as RegExp),
      // Group 1 of the first that matches is the status; else a text that is only a reason phrase.
      httpStatuses: (message.HTTP_STATUS_PHRASINGS as RegExp[]).map(re2),
      reasonPhrases: message.REASON_PHRASES,
      // Removed (replaced by a space) before the families are read.
      settings: re2(message.SETTINGS as RegExp),
      // A 429's kind: rate-limit words win, then quota words (http.statuses' kindWithQuotaEvidence).
      rateLimitText: re2(throttleText.RATE_LIMIT_TEXT as RegExp),
      quotaText: re2(throttleText.QUOTA_TEXT as RegExp),
      retryDelayText: re2(throttleText.RETRY_DELAY_TEXT as RegExp),
      nodeCode: re2(message.NODE_CODE as RegExp),
      // After the code: group 1 of systemErrorText, lowercased, names the code in systemErrorTexts.
      systemErrorText: re2(message.SYSTEM_ERROR_TEXT as RegExp),
      systemErrorTexts: message.SYSTEM_ERROR_TEXTS,
      families: families.map(([kind, pattern]) => ({ kind, ...re2(pattern) })),
    },
    errorType: {
      maxLength: errorType.MAX_ERROR_TYPE_LENGTH,
      maxDistinct: DEFAULT_MAX_ERROR_TYPES,
      idleMs: DEFAULT_ERROR_TYPE_IDLE_MS,
      alwaysAllowed: sorted([...(errorType.ALWAYS_ALLOWED as Set<string>), ...PYTHON_BUILTIN_CLASSES]),
      sanitize: { pattern: '[^A-Za-z0-9_.:$-]+', replacement: '_', empty: 'Error' },
    },
    results: {
      maxLength: spanEvidence.MAX_RESULT_LENGTH,
      hint: re2(spanEvidence.ERROR_RESULT_HINT as RegExp),
    },
    redaction: {
      redacted: REDACTED,
      maxStatusMessageLength: MAX_STATUS_MESSAGE_LENGTH,
      // An exception event's message and stacktrace: scrubbed whole, then cut to this length.
      maxExceptionTextLength: MAX_EXCEPTION_TEXT_LENGTH,
      // A stack's frame lines (V8, Java, Go) hold code locations, not data. A stack whose lines
      // after its head all start with stackFrameLineStart (V8's), none with a URL, has its head
      // scrubbed alone; a stack stackFrameMarker does not match is scrubbed whole; in any other,
      // each line that matches stackFrameLine and holds no `://` is kept, and runs of the other
      // lines are scrubbed, each run whole.
      stackFrameLineStart: text.FRAME_LINE_START,
      stackFrameMarker: re2(text.FRAME_MARKER as RegExp),
      stackFrameLine: re2(text.FRAME_LINE as RegExp),
      secretKeyWords: text.SECRET_KEY_WORDS,
      // Group 1, when a pattern has one, is kept (a scheme, a header or key name, `bearer`),
      // with group 2 (a separator) after it; a group 1 holding `://` with more after it is a URL
      // whose query is dropped.
      patterns: (text.SECRET_PATTERNS as RegExp[]).map(re2),
      mayHoldSecretExactCase: re2(text.MAY_HOLD_SECRET_EXACT_CASE as RegExp),
      mayHoldSecretAnyCase: re2(text.MAY_HOLD_SECRET_ANY_CASE as RegExp),
      minOpaqueRun: text.MIN_OPAQUE_RUN,
    },
    python: {
      classes: Object.fromEntries(
        [...PYTHON_CLASSES].sort((a, b) => a.name.localeCompare(b.name)).map((c) => [c.name, c.kind]),
      ),
      statusMessages: PYTHON_STATUS_MESSAGES.map((entry) => entry.pattern),
      retryDelay: PYTHON_RETRY_DELAY.pattern,
      pauses: [...PYTHON_PAUSES],
    },
    // The package's own declarations, their data only (a family's reader is code), then the
    // other languages' tool spans; those that refine the GenAI convention come before it.
    spanFamilies: [
      ...SPAN_FAMILIES.slice(0, SPAN_FAMILIES.indexOf(GENAI)).map(familyData),
      ...OTHER_LANGUAGE_GENAI_FAMILIES,
      ...SPAN_FAMILIES.slice(SPAN_FAMILIES.indexOf(GENAI)).map(familyData),
      ...OTHER_LANGUAGE_FAMILIES,
    ],
  };
}

/** A family's declaration without its reader, which is code; `errorResultReader` says it has one. */
function familyData({ readErrorResult, ...data }: SpanFamily): object {
  return readErrorResult ? { ...data, errorResultReader: true } : data;
}

/** The file's text, formatted as the repository's prettier formats JSON. */
export async function renderRules(): Promise<string> {
  const options = await resolveConfig(RULES_FILE);
  return format(JSON.stringify(buildRules()), { ...options, parser: 'json', filepath: RULES_FILE });
}

async function main(): Promise<void> {
  const text = await renderRules();
  for (const file of [RULES_FILE, EMBEDDED_RULES_FILE]) {
    const old = (() => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    })();
    writeFileSync(file, text);
    console.log(`${relative(ROOT, file)}: ${old === text ? 'unchanged' : 'written'}`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
