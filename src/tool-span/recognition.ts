import type { Attributes } from '@opentelemetry/api';
import { ATTR_GEN_AI_TOOL_CALL_ID, ATTR_GEN_AI_TOOL_NAME } from '../semconv';
import type { SpanFamily, ToolNameSource } from './families/family';
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

/** One `SpanMatch` of one family, with its parts as arrays. */
interface Rule {
  readonly family: number;
  readonly nameEquals: string | undefined;
  readonly namePrefix: string | undefined;
  readonly nameSuffix: string | undefined;
  readonly attributes: ReadonlyArray<readonly [string, string]>;
  readonly present: readonly string[];
}

/**
 * The families' rules, each filed under the part of it checked first: the first character of the
 * name it equals or starts with (ASCII), else the first attribute it tests, else its name suffix.
 * A span that is no tool span then costs one read of its name's first character and one read of
 * each attribute some rule tests first.
 */
const byFirstChar: Rule[][] = Array.from({ length: 128 }, () => []);
const attributeKeys: string[] = [];
const byAttribute: Rule[][] = [];
const bySuffix: Rule[] = [];
SPAN_FAMILIES.forEach((family, index) => {
  for (const match of family.recognise) {
    const rule: Rule = {
      family: index,
      nameEquals: match.nameEquals,
      namePrefix: match.namePrefix,
      nameSuffix: match.nameSuffix,
      attributes: Object.entries(match.attributes ?? {}),
      present: match.present ?? [],
    };
    const start = (rule.nameEquals ?? rule.namePrefix ?? '').charCodeAt(0);
    const key = rule.attributes[0]?.[0] ?? rule.present[0];
    if (start < 128) byFirstChar[start]!.push(rule);
    else if (key !== undefined) fileUnder(key, rule);
    else if (rule.nameSuffix !== undefined) bySuffix.push(rule);
    else throw new Error(`span family ${family.framework}: a match must test the name or an attribute`);
  }
});

function fileUnder(key: string, rule: Rule): void {
  let index = attributeKeys.indexOf(key);
  if (index === -1) index = attributeKeys.push(key) - 1;
  (byAttribute[index] ??= []).push(rule);
}

/**
 * Which of `attributeKeys` the span has, one bit each. Generated with each key written out: on an
 * SDK span's attributes a read with a variable key costs several times one with a literal key
 * (BENCHMARKS.md, "Span families"), and this runs on every span. Where code cannot be generated
 * (an edge runtime), the same reads with variable keys.
 */
const presentKeys = generatePresentKeys(attributeKeys);

function generatePresentKeys(keys: readonly string[]): (attributes: Attributes) => number {
  if (keys.length > 31) throw new Error('span families: more than 31 attributes tested first');
  try {
    const reads = keys.map((key, i) => `(a[${JSON.stringify(key)}] !== undefined ? ${2 ** i} : 0)`);
    return new Function('a', `return ${reads.join(' | ') || '0'};`) as (attributes: Attributes) => number;
  } catch {
    return (attributes) =>
      keys.reduce((bits, key, i) => bits | (attributes[key] !== undefined ? 2 ** i : 0), 0);
  }
}

function matches(span: ReadableSpanLike, rule: Rule): boolean {
  const name = span.name;
  const attributes = span.attributes;
  if (rule.nameEquals !== undefined && name !== rule.nameEquals) return false;
  if (rule.namePrefix !== undefined && !name.startsWith(rule.namePrefix)) return false;
  if (rule.nameSuffix !== undefined && !name.endsWith(rule.nameSuffix)) return false;
  for (const [key, value] of rule.attributes) if (attributes[key] !== value) return false;
  for (const key of rule.present) if (attributes[key] === undefined) return false;
  return true;
}

/** The first family (in list order) among `rules` that matches `span`, if before `best`. */
function firstMatching(span: ReadableSpanLike, rules: readonly Rule[], best: number): number {
  for (const rule of rules) if (rule.family < best && matches(span, rule)) best = rule.family;
  return best;
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
  const none = SPAN_FAMILIES.length;
  let best = none;
  const byName = byFirstChar[span.name.charCodeAt(0)];
  if (byName !== undefined && byName.length > 0) best = firstMatching(span, byName, best);
  const present = presentKeys(span.attributes);
  if (present !== 0) {
    for (let i = 0; i < byAttribute.length; i++) {
      if ((present & (2 ** i)) !== 0) best = firstMatching(span, byAttribute[i]!, best);
    }
  }
  if (bySuffix.length > 0) best = firstMatching(span, bySuffix, best);
  if (best !== none) return SPAN_FAMILIES[best];
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
