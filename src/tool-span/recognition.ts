import { ATTR_GEN_AI_TOOL_NAME } from '../semconv';
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

/** One `SpanMatch` of one family, filed under the one part of it that is checked first. */
interface Rule {
  readonly family: number;
  readonly match: SpanMatch;
}

/**
 * The families' matches, filed so that a span that is no tool span costs one lookup of its name,
 * one read of each attribute some match tests, and one comparison of each name prefix or suffix.
 */
const byName = new Map<string, Rule[]>();
const byAttribute = new Map<string, Rule[]>();
const byPrefix: Rule[] = [];
const bySuffix: Rule[] = [];
SPAN_FAMILIES.forEach((family, index) => {
  for (const match of family.recognise) {
    const rule = { family: index, match };
    const attribute = Object.keys(match.attributes ?? {})[0] ?? match.present?.[0];
    if (match.nameEquals !== undefined) file(byName, match.nameEquals, rule);
    else if (attribute !== undefined) file(byAttribute, attribute, rule);
    else if (match.namePrefix !== undefined) byPrefix.push(rule);
    else if (match.nameSuffix !== undefined) bySuffix.push(rule);
    else throw new Error(`span family ${family.framework}: a match must test the name or an attribute`);
  }
});
const attributeKeys = [...byAttribute.keys()];

function file(index: Map<string, Rule[]>, key: string, rule: Rule): void {
  const rules = index.get(key);
  if (rules) rules.push(rule);
  else index.set(key, [rule]);
}

function matches(span: ReadableSpanLike, match: SpanMatch): boolean {
  const name = span.name;
  const attributes = span.attributes;
  if (match.nameEquals !== undefined && name !== match.nameEquals) return false;
  if (match.namePrefix !== undefined && !name.startsWith(match.namePrefix)) return false;
  if (match.nameSuffix !== undefined && !name.endsWith(match.nameSuffix)) return false;
  for (const key in match.attributes) if (attributes[key] !== match.attributes[key]) return false;
  for (const key of match.present ?? []) if (attributes[key] === undefined) return false;
  return true;
}

/** The first family (in list order) among `rules` that matches `span`, if before `best`. */
function firstMatching(span: ReadableSpanLike, rules: readonly Rule[], best: number): number {
  for (const rule of rules) if (rule.family < best && matches(span, rule.match)) best = rule.family;
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
  const named = byName.get(span.name);
  if (named !== undefined) best = firstMatching(span, named, best);
  for (const key of attributeKeys) {
    if (span.attributes[key] !== undefined) best = firstMatching(span, byAttribute.get(key)!, best);
  }
  best = firstMatching(span, byPrefix, best);
  best = firstMatching(span, bySuffix, best);
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

function readToolName(span: ReadableSpanLike, source: ToolNameSource): unknown {
  if (typeof source === 'string') return span.attributes[source];
  if ('wholeName' in source) return span.name;
  return span.name.startsWith(source.nameAfter) ? span.name.slice(source.nameAfter.length) : undefined;
}
