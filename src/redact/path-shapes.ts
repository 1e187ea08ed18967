/**
 * URL paths whose shape says where a secret sits, whatever the host (a proxy, a self-hosted
 * gateway, a relay) and whatever the secret's length: each pattern's group 1 is what stays
 * readable (the shape's words and the ids that are not secrets), the rest of the match is the
 * secret. Used for free text (text.ts adds them to its secret patterns, and so to the rules file
 * the collector processor reads) and for URL attributes (url.ts). RE2 syntax: no lookaround, no
 * backreferences, no nested quantifiers.
 */

/** A path segment's characters, or the rest of one: a secret ends at the segment's end. */
const SECRET = String.raw`[^\s"'<>?#/\\&,;]+`;

export const SECRET_PATH_SHAPES: readonly RegExp[] = [
  // Slack incoming webhooks `/services/T{team}/B{hook}/{secret}`, workflow webhooks
  // `/workflows/T{team}/A{app}/{id}/{secret}` and triggers `/triggers/T{team}/{id}/{secret}`.
  new RegExp(String.raw`(/services/T[A-Z0-9]+/B[A-Z0-9]+/)${SECRET}`, 'g'),
  new RegExp(String.raw`(/workflows/T[A-Z0-9]+/A[A-Z0-9]+/[0-9]+/)${SECRET}`, 'g'),
  new RegExp(String.raw`(/triggers/T[A-Z0-9]+/[0-9]+/)${SECRET}`, 'g'),
  // Discord (and its clones) `/api/webhooks/{id}/{token}`, also with an API version.
  new RegExp(String.raw`(/api/(?:v[0-9]+/)?webhooks/[0-9]+/)${SECRET}`, 'g'),
  // Telegram's bot API `/bot{id}:{token}/method`, and its file downloads `/file/bot{id}:{token}/...`.
  new RegExp(String.raw`(/bot[0-9]+:)${SECRET}`, 'g'),
  // Zapier catch hooks `/hooks/catch/{account}/{secret}/`.
  new RegExp(String.raw`(/hooks/catch/[0-9]+/)${SECRET}`, 'g'),
  // IFTTT webhooks `/trigger/{event}/with/key/{key}`.
  new RegExp(String.raw`(/with/key/)${SECRET}`, 'g'),
  // Microsoft Teams incoming webhooks `/webhookb2/{group}@{tenant}/IncomingWebhook/{secret}/{owner}`.
  new RegExp(String.raw`(/IncomingWebhook/)${SECRET}`, 'g'),
];

/** Where one shape matched in a path: the readable part is `[start, secretStart)`, the secret `[secretStart, end)`. */
export interface PathShapeMatch {
  readonly start: number;
  readonly secretStart: number;
  readonly end: number;
}

/** Every secret-bearing shape in `path`, in order, none overlapping. Linear in the path's length per shape. */
export function pathShapeMatches(path: string): PathShapeMatch[] {
  const found: PathShapeMatch[] = [];
  for (const shape of SECRET_PATH_SHAPES) {
    for (const match of path.matchAll(shape)) {
      const start = match.index;
      found.push({ start, secretStart: start + match[1]!.length, end: start + match[0].length });
    }
  }
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start);
  const kept: PathShapeMatch[] = [];
  for (const match of found)
    if (kept.length === 0 || match.start >= kept[kept.length - 1]!.end) kept.push(match);
  return kept;
}
