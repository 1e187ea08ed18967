import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The secret corpus and the leak oracle, both from a maintained rule set: the installed
 * `@secretlint/secretlint-rule-preset-recommend`. The corpus is every string its rules find in
 * their own test inputs (test/fixtures/secretlint-preset-inputs.json), plus shapes it has no rule
 * for or leaves off by default. Any text handed to `findSecrets` is a leak when the rules find
 * something in it, or in it with its percent-escapes decoded.
 */

export interface CorpusSecret {
  /** The rule (or our label) that says this is a secret. */
  readonly rule: string;
  readonly secret: string;
  /** Parts of `secret` that must not be found either: the secret position of a path shape. */
  readonly needles?: readonly string[];
}

interface Lint {
  lintSource(input: unknown): Promise<{ messages: { range: [number, number]; ruleId: string }[] }>;
}

let loaded: Promise<{ core: Lint; preset: unknown }> | undefined;
function secretlint(): Promise<{ core: Lint; preset: unknown }> {
  loaded ??= (async () => {
    const core = (await import('@secretlint/core')) as unknown as Lint;
    const { creator } = (await import('@secretlint/secretlint-rule-preset-recommend')) as {
      creator: unknown;
    };
    return { core, preset: creator };
  })();
  return loaded;
}

/** The strings the preset's rules report in `text`, as found (ranges into `text`). */
export async function findSecrets(text: string): Promise<{ rule: string; found: string }[]> {
  const { core, preset } = await secretlint();
  const result = await core.lintSource({
    source: { filePath: '/telemetry/export.txt', content: text, contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset }] } },
  });
  return result.messages.map((message) => ({
    rule: message.ruleId.replace('@secretlint/secretlint-rule-', ''),
    found: text.slice(message.range[0], message.range[1]),
  }));
}

/**
 * Known secret-bearing URL path shapes on hosts other than their service's own (a relay, a proxy,
 * a self-hosted clone), with secrets as short as 6 characters: each needle is the secret position,
 * which must be gone wherever the URL was put.
 */
export const PATH_TOKENS: readonly CorpusSecret[] = [
  {
    rule: 'slack-style webhook path, other host',
    secret: 'https://relay.example.org/slack/services/T0ABCD1EF/B0GHIJ2KL/Zq8Xw4Vb6Nm2Lk9Jh3Gf5Dp7S',
    needles: ['Zq8Xw4Vb6Nm2Lk9Jh3Gf5Dp7S'],
  },
  {
    rule: 'slack-style webhook path, other host, short secret',
    secret: 'https://hooks.example.com/services/T0ABCD1EF/B0GHIJ2KL/q8Xw4Vb6',
    needles: ['q8Xw4Vb6'],
  },
  {
    rule: 'slack-style workflow webhook path, other host, short secret',
    secret: 'https://hooks.example.net/workflows/T0ABCD1EF/A0BCDE1FG/123456789012345678/w7rt2yp9',
    needles: ['w7rt2yp9'],
  },
  {
    rule: 'slack-style trigger path, other host, short secret',
    secret: 'https://hooks.example.net/triggers/T0ABCD1EF/987654321098/tr5gq2',
    needles: ['tr5gq2'],
  },
  {
    rule: 'telegram bot token path, other host',
    secret: 'https://tg-proxy.example.net/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage',
    needles: ['AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'],
  },
  {
    rule: 'telegram bot token path, short token',
    secret: 'https://api.telegram.org/bot987654:k2Jd9sLq/getMe',
    needles: ['k2Jd9sLq'],
  },
  {
    rule: 'discord-style webhook path, other host, short token',
    secret: 'https://chat.example.com/api/v10/webhooks/112233445566778899/k3jd9slq',
    needles: ['k3jd9slq'],
  },
  {
    rule: 'zapier-style catch hook path, other host, short secret',
    secret: 'https://zap.example.io/hooks/catch/123456/x7k2m9p4/',
    needles: ['x7k2m9p4'],
  },
  {
    rule: 'ifttt-style webhook key path, other host, short key',
    secret: 'https://maker.example.com/trigger/door_open/with/key/d4Kq9Xz2',
    needles: ['d4Kq9Xz2'],
  },
  {
    rule: 'teams-style incoming webhook path, short secret',
    secret: 'https://contoso.example.com/webhookb2/g1@t1/IncomingWebhook/5c1a9e2b/0wner1d',
    needles: ['5c1a9e2b'],
  },
];

/** Secrets the preset leaves off by default, or has no rule for, and shapes agent tools carry. */
export const EXTRA_SECRETS: readonly CorpusSecret[] = [
  { rule: 'aws access key id', secret: 'AKIAIOSFODNN7SECRETS' },
  { rule: 'aws temporary key id', secret: 'ASIAY34FZKBOKMUTVV7A' },
  { rule: 'stripe live key', secret: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' },
  { rule: 'google api key', secret: 'AIzaSyA-1234567890abcdefghijklmnopqrstu' },
  { rule: 'gitlab token', secret: 'glpat-xK9mQ2vR7tYpL4nW8sZe' },
  { rule: 'hugging face token', secret: 'hf_QmZkVbTrWpXyLnHsDfGjKaEcUoIq12345678' },
  { rule: 'npm token', secret: 'npm_K8sPq2LmN4vX7rT9wY3zB6cD1fG5hJ0kQ2aS' },
  { rule: 'jwt', secret: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJlLXZhbHVlLTEyMzQ' },
  {
    rule: 'slack webhook url',
    secret: 'https://hooks.slack.com/services/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S',
  },
  {
    rule: 'discord webhook url',
    secret:
      'https://discord.com/api/webhooks/112233445566778899/Xy9-Kq2Lm4Np6Rs8Tu0Vw2Yz4Ab6Cd8Ef0Gh2Ij4Kl6Mn8',
  },
  ...PATH_TOKENS,
  { rule: 'random api key', secret: 'Zx8Qw2Er6Ty4Ui9Op3As7Df1Gh5Jk0LmNb' },
  { rule: 'hex api key', secret: '3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e' },
  {
    rule: 'pem private key',
    secret: [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu',
      'KUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQJAIJLixBy2qpFoS4DSmoEm',
      '-----END RSA PRIVATE KEY-----',
    ].join('\n'),
  },
];

/** Secret values that only a key names as secret: placed in JSON and form bodies under that key. */
export const KEYED_SECRETS: readonly { key: string; value: string }[] = [
  { key: 'access_token', value: 'at8Hq2kWm5' },
  { key: 'refresh_token', value: 'rt3Jx9vLp1' },
  { key: 'id_token', value: 'it6Dn4sQz7' },
  { key: 'client_secret', value: 'cs2Wy8mKr4' },
  { key: 'password', value: 'pw5Tb1nHc9' },
  { key: 'api_key', value: 'ak7Fv3xGd2' },
  { key: 'GITHUB_TOKEN', value: 'gt4Lm6pRs8' },
];

let corpus: Promise<CorpusSecret[]> | undefined;

/** Every secret the preset finds in its own test inputs, then `EXTRA_SECRETS`; distinct. */
export function secretCorpus(): Promise<CorpusSecret[]> {
  corpus ??= (async () => {
    const path = join(__dirname, '..', 'fixtures', 'secretlint-preset-inputs.json');
    const { cases } = JSON.parse(readFileSync(path, 'utf8')) as { cases: { input: string }[] };
    const seen = new Set<string>();
    const out: CorpusSecret[] = [];
    for (const { input } of cases) {
      for (const { rule, found } of await findSecrets(input)) {
        if (seen.has(found)) continue;
        seen.add(found);
        out.push({ rule, secret: found });
      }
    }
    for (const extra of EXTRA_SECRETS) if (!seen.has(extra.secret)) out.push(extra);
    return out;
  })();
  return corpus;
}

/**
 * What of `secret` must not be found in telemetry: the string itself, its percent-encoded form,
 * and a URL's last path segment. Matches that carry the key name (`AWS_SECRET_ACCESS_KEY = wJal…`) are reduced to the value.
 */
export function secretNeedles(secret: string): string[] {
  const value = /^[A-Za-z_]+ [:=] (.{8,})$/.exec(secret)?.[1] ?? secret;
  const needles = [value, encodeURIComponent(value)];
  // A webhook URL's credential is its last path segment, wherever the rest went.
  const lastSegment = /^https:\/\/\S+\/([^/]{16,})$/.exec(value)?.[1];
  if (lastSegment !== undefined) needles.push(lastSegment);
  return [...new Set(needles)];
}

/**
 * Leaks in `outputs`, each paired with the one secret it was made from: that secret's needles found
 * verbatim, and whatever the preset's rules find in any output (one lint run for all of them).
 */
export async function leaksIn(outputs: readonly { text: string; from: CorpusSecret }[]): Promise<string[]> {
  const leaks: string[] = [];
  for (const { text, from } of outputs) {
    for (const needle of new Set([...secretNeedles(from.secret), ...(from.needles ?? [])])) {
      const at = text.indexOf(needle);
      if (at !== -1)
        leaks.push(`${from.rule}: ${JSON.stringify(text.slice(Math.max(0, at - 100), at + 60))}`);
    }
  }
  const joined = [...new Set(outputs.map((output) => output.text))].join('\n\n');
  const decoded = safeDecode(joined);
  for (const view of decoded === joined ? [joined] : [joined, decoded]) {
    for (const { rule, found } of await findSecrets(view)) {
      // The conventions' own placeholder for removed credentials (`https://REDACTED:REDACTED@host`).
      if (found.includes('REDACTED:REDACTED@')) continue;
      // The same placeholder at a path's secret position, its ids kept (`/services/T…/B…/REDACTED`).
      if (found.endsWith('/REDACTED')) continue;
      leaks.push(`${rule} (secretlint): ${found.slice(0, 60)}`);
    }
  }
  return leaks;
}

function safeDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escaped) => {
    try {
      return decodeURIComponent(escaped);
    } catch {
      return escaped;
    }
  });
}
