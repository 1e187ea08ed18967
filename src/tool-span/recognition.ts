import type { Attributes } from '@opentelemetry/api';
import { ATTR_GEN_AI_TOOL_CALL_ID, ATTR_GEN_AI_TOOL_NAME } from '../semconv';
import type { SpanFamily, SpanMatch, ToolNameSource } from './families/family';
import { SPAN_FAMILIES } from './families/list';
import type { ReadableSpanLike } from './span-shape';
import { logger } from '../logger';

/** The family of a tool span: a declared framework's (families/), or the application's own. */
export type ToolSpanFamily = SpanFamily;

/** The application's own test for tool spans. It sees the span at start and again at its end. */
export type ToolSpanMatcher = (span: ReadableSpanLike) => boolean;

/** Spans the application's `isToolSpan` said are tool spans. */
export const APPLICATION_FAMILY: SpanFamily = {
  framework: 'the application (isToolSpan)',
  recognise: [],
  toolName: ['tool.name'],
};

/** Every family's matches, in list order: the first that holds names the span's family. */
const RULES = SPAN_FAMILIES.flatMap((family, index) =>
  family.recognise.map((match) => ({ family: index, match })),
);

/**
 * What every span is checked for first, so that a span that is no tool span costs one read of its
 * name's first character and one read of each attribute some match tests first: each match needs
 * its name's first character (when it tests the name's start) or else its first attribute. Before
 * the generated test it saves about 100 ns a span; before the interpreted one it holds what that
 * path adds to a non-tool span to 17% of the span's cost, where an ungated loop adds 81%
 * (BENCHMARKS.md, "Span recognition").
 */
const FIRST_CHARACTERS = new Uint8Array(128);
const GATE_KEYS: string[] = [];
let ungated = false;
for (const { match } of RULES) {
  const start = (match.nameEquals ?? match.namePrefix ?? '').charCodeAt(0);
  const key = Object.keys(match.attributes ?? {})[0] ?? match.present?.[0];
  if (start < 128) FIRST_CHARACTERS[start] = 1;
  else if (key !== undefined) {
    if (!GATE_KEYS.includes(key)) GATE_KEYS.push(key);
  } else ungated = true;
}

/**
 * The declarations' tests, generated as code with each attribute key and name written out: on an
 * SDK span's attributes a read with a variable key costs several times one with a literal key,
 * and these run on every span (read from the declarations instead, they add 17% to a non-tool
 * span's cost; BENCHMARKS.md, "Span recognition"). Where code cannot be generated (an edge
 * runtime), the same tests read the declarations.
 */
function generated<F>(parameter: string, body: string, fallback: F): F {
  try {
    return new Function(parameter, body) as F;
  } catch {
    return fallback;
  }
}

const literal = (value: string): string => JSON.stringify(value);

/** Whether the span's attributes have any of `GATE_KEYS`. */
const hasGateKey: (attributes: Attributes) => boolean = generated(
  'a',
  `return ${GATE_KEYS.map((key) => `a[${literal(key)}] !== undefined`).join(' || ') || 'false'};`,
  (attributes: Attributes) => GATE_KEYS.some((key) => attributes[key] !== undefined),
);

/** The index of the first family with a match that holds, or -1. Attributes are tested before names. */
const firstMatchingFamily: (span: ReadableSpanLike) => number = generated(
  's',
  'const n = s.name, a = s.attributes;\n' +
    RULES.map(({ family, match }) => `if (${condition(match)}) return ${family};\n`).join('') +
    'return -1;',
  (span: ReadableSpanLike) => RULES.find(({ match }) => matches(span, match))?.family ?? -1,
);

function condition(match: SpanMatch): string {
  const parts = [
    ...Object.entries(match.attributes ?? {}).map(
      ([key, value]) => `a[${literal(key)}] === ${literal(value)}`,
    ),
    ...(match.present ?? []).map((key) => `a[${literal(key)}] !== undefined`),
    ...(match.nameEquals === undefined ? [] : [`n === ${literal(match.nameEquals)}`]),
    ...(match.namePrefix === undefined
      ? []
      : [
          `n.charCodeAt(0) === ${match.namePrefix.charCodeAt(0)} && n.startsWith(${literal(match.namePrefix)})`,
        ]),
    ...(match.nameSuffix === undefined ? [] : [`n.endsWith(${literal(match.nameSuffix)})`]),
  ];
  return parts.join(' && ') || 'false';
}

function matches(span: ReadableSpanLike, match: SpanMatch): boolean {
  const { name, attributes } = span;
  return (
    Object.entries(match.attributes ?? {}).every(([key, value]) => attributes[key] === value) &&
    (match.present ?? []).every((key) => attributes[key] !== undefined) &&
    (match.nameEquals === undefined || name === match.nameEquals) &&
    (match.namePrefix === undefined || name.startsWith(match.namePrefix)) &&
    (match.nameSuffix === undefined || name.endsWith(match.nameSuffix))
  );
}

/**
 * The family of a tool span, or `undefined` for any other span: the first family in
 * `SPAN_FAMILIES` with a match, else the application's matcher. Runs on every span at start and at
 * end; it is called again at the end because some frameworks set their identifying attributes
 * after start (ADK sets `gen_ai.*` only when the tool returned).
 */
export function recognizeToolSpan(
  span: ReadableSpanLike,
  matcher: ToolSpanMatcher | undefined,
): ToolSpanFamily | undefined {
  if (ungated || FIRST_CHARACTERS[span.name.charCodeAt(0)] === 1 || hasGateKey(span.attributes)) {
    const family = firstMatchingFamily(span);
    if (family !== -1) return SPAN_FAMILIES[family];
  }
  if (matcher !== undefined && matcher(span)) return APPLICATION_FAMILY;
  return undefined;
}

/**
 * The application's matcher, checked once and made safe: a matcher that throws counts as "not a
 * tool span", and is reported once rather than once a span.
 */
export function guardMatcher(matcher: unknown, owner: string): ToolSpanMatcher | undefined {
  if (matcher === undefined) return undefined;
  if (typeof matcher !== 'function') {
    throw new TypeError(`${owner}: isToolSpan must be a function (span) => boolean, got ${typeof matcher}`);
  }
  let reported = false;
  return (span) => {
    try {
      return matcher(span) === true;
    } catch (error) {
      if (!reported) {
        reported = true;
        logger.warn(`${owner}: the isToolSpan option threw; such spans are treated as non-tool spans`, error);
      }
      return false;
    }
  };
}

/**
 * The tool's name when the span lacks `gen_ai.tool.name` but its framework recorded the name its
 * own way. Filling `gen_ai.tool.name` lets one query and one spanmetrics dimension cover every
 * framework. `gen_ai.operation.name` is deliberately not filled: backends such as Phoenix,
 * Langfuse and OpenLLMetry's own span processor key their handling of these spans on the
 * framework's convention, and a second, competing operation name could change how they treat it.
 */
export function missingToolName(span: ReadableSpanLike, family: ToolSpanFamily): string | undefined {
  if (span.attributes[ATTR_GEN_AI_TOOL_NAME] !== undefined) return undefined;
  for (const source of family.toolName) {
    const name = readToolName(span, source);
    if (typeof name === 'string' && name !== '') return name;
  }
  return undefined;
}

/**
 * What the processor fills on a tool span of `family`: the GenAI attributes it lacks whose value
 * its framework recorded its own way (`gen_ai.tool.name`, `gen_ai.tool.call.id`); `undefined` when
 * there is none.
 */
export function missingGenAiAttributes(
  span: ReadableSpanLike,
  family: ToolSpanFamily,
): Attributes | undefined {
  const toolName = missingToolName(span, family);
  const callId =
    span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === undefined
      ? family.callId?.map((key) => span.attributes[key]).find((id) => typeof id === 'string' && id !== '')
      : undefined;
  if (toolName === undefined && callId === undefined) return undefined;
  const missing: Attributes = {};
  if (toolName !== undefined) missing[ATTR_GEN_AI_TOOL_NAME] = toolName;
  if (callId !== undefined) missing[ATTR_GEN_AI_TOOL_CALL_ID] = callId;
  return missing;
}

function readToolName(span: ReadableSpanLike, source: ToolNameSource): unknown {
  if (typeof source === 'string') return span.attributes[source];
  if ('wholeName' in source) return span.name;
  return span.name.startsWith(source.nameAfter) ? span.name.slice(source.nameAfter.length) : undefined;
}
