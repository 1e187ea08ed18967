/**
 * Secrets as they turn up in tool arguments, results and error messages. Each entry names the
 * exact substring that must never reach telemetry. Values are made up but shaped like the real
 * thing, so the provider-specific patterns are exercised.
 */
export interface SecretSample {
  readonly label: string;
  /** The text a tool might carry. */
  readonly text: string;
  /** The part of `text` that must not appear in any output. */
  readonly secret: string;
}

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjYW5hcnktdXNlciIsImlhdCI6MTUxNjIzOTAyMn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

export const SECRET_SAMPLES: readonly SecretSample[] = [
  {
    label: 'Authorization header, Bearer',
    text: 'Authorization: Bearer tok3nBearerValue9Zq',
    secret: 'tok3nBearerValue9Zq',
  },
  {
    label: 'bare Bearer token',
    text: 'sent Bearer abcBEARERonly12345 upstream',
    secret: 'abcBEARERonly12345',
  },
  {
    label: 'Authorization header, Basic',
    text: 'authorization: Basic YWxpY2U6czNjcjN0UGFzcw==',
    secret: 'YWxpY2U6czNjcjN0UGFzcw==',
  },
  {
    label: 'bare Basic credentials',
    text: 'retry with Basic Ym9iOmh1bnRlcjJodW50ZXI=',
    secret: 'Ym9iOmh1bnRlcjJodW50ZXI=',
  },
  {
    label: 'Authorization header, custom scheme',
    text: 'Authorization: Token customSchemeSecret77',
    secret: 'customSchemeSecret77',
  },
  {
    label: 'Proxy-Authorization header',
    text: 'Proxy-Authorization: Basic cHJveHk6cHJveHlwYXNz',
    secret: 'cHJveHk6cHJveHlwYXNz',
  },
  {
    label: 'Authorization in a JSON headers text',
    text: '{"headers":{"Authorization":"Token jsonHeaderToken12"}}',
    secret: 'jsonHeaderToken12',
  },
  { label: 'password with a backslash', text: 'password=back\\slashPass', secret: 'slashPass' },
  { label: 'x-api-key header', text: 'x-api-key: xApiKeyHeaderValue123', secret: 'xApiKeyHeaderValue123' },
  {
    label: 'OpenAI project key',
    text: 'OPENAI key sk-proj-Q1w2E3r4T5y6U7i8O9p0AsDf',
    secret: 'sk-proj-Q1w2E3r4T5y6U7i8O9p0AsDf',
  },
  {
    label: 'OpenAI legacy key',
    text: 'sk-abcdefghijklmnopqrstuvwxyz012345',
    secret: 'sk-abcdefghijklmnopqrstuvwxyz012345',
  },
  {
    label: 'Anthropic key',
    text: 'key=sk-ant-api03-ZxCvBnMaSdFgHjKl-QwErTy',
    secret: 'sk-ant-api03-ZxCvBnMaSdFgHjKl-QwErTy',
  },
  {
    label: 'AWS access key id',
    text: 'AccessKeyId AKIAIOSFODNN7EXAMPLE in us-east-1',
    secret: 'AKIAIOSFODNN7EXAMPLE',
  },
  { label: 'AWS temporary key id', text: 'ASIAY34FZKBOKMUTVV7A expired', secret: 'ASIAY34FZKBOKMUTVV7A' },
  {
    label: 'AWS secret access key',
    text: 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  { label: 'JWT alone', text: `session ${JWT}`, secret: JWT },
  { label: 'JWT as Bearer', text: `Authorization: Bearer ${JWT}`, secret: JWT },
  {
    label: 'password in a JSON text',
    text: '{"user":"alice","password":"jsonPassw0rd!"}',
    secret: 'jsonPassw0rd!',
  },
  {
    label: 'password in a JSON text, spaced',
    text: '{ "password" : "spacedPassw0rd" }',
    secret: 'spacedPassw0rd',
  },
  { label: 'api_key in a JSON text', text: '{"api_key":"jsonApiKeyValue42"}', secret: 'jsonApiKeyValue42' },
  {
    label: 'client_secret, quoted',
    text: 'client_secret: "quotedClientSecret9"',
    secret: 'quotedClientSecret9',
  },
  { label: 'password=…', text: 'login failed password=formPassw0rd&user=bob', secret: 'formPassw0rd' },
  { label: 'token=…', text: 'token=plainTokenValue55 rejected', secret: 'plainTokenValue55' },
  {
    label: 'password in URL userinfo',
    text: 'GET https://alice:urlPassw0rd@api.example.com/v1',
    secret: 'urlPassw0rd',
  },
  {
    label: 'database URL userinfo',
    text: 'postgres://admin:dbPassw0rd@db.internal:5432/app',
    secret: 'dbPassw0rd',
  },
  {
    label: 'secret in a URL query string',
    text: 'fetch https://api.example.com/search?q=x&api_key=querySecretValue&page=2 failed',
    secret: 'querySecretValue',
  },
  {
    label: 'secret in a URL fragment',
    text: 'redirect to https://app.example.com/cb#access_token=fragSecret1',
    secret: 'fragSecret1',
  },
  {
    label: 'GitHub token',
    text: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    secret: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  },
  {
    label: 'Slack token',
    text: 'xoxb-1234567890-slackTokenValue',
    secret: 'xoxb-1234567890-slackTokenValue',
  },
  {
    label: 'Google API key',
    text: 'AIzaSyA-abcdefghijklmnopqrstuvwxyz12345',
    secret: 'AIzaSyA-abcdefghijklmnopqrstuvwxyz12345',
  },
  { label: 'Stripe key', text: 'sk_live_abcdefghijklmnop', secret: 'sk_live_abcdefghijklmnop' },
  { label: 'Cookie header', text: 'Cookie: sid=cookieSessionValue', secret: 'cookieSessionValue' },
];

/** Keys whose values `redactForCapture` must redact whatever they hold. */
export const SECRET_KEYS: readonly string[] = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'api_key',
  'apiKey',
  'apikey',
  'x-api-key',
  'access_token',
  'refresh_token',
  'Authorization',
  'cookie',
  'Set-Cookie',
  'client_secret',
  'private_key',
  'session_token',
];
