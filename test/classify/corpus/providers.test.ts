import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { Mistral } from '@mistralai/mistralai';
import { HTTPClient } from '@mistralai/mistralai/lib/http.js';
import { CohereClientV2 } from 'cohere-ai';
import Groq from 'groq-sdk';
import { corpusEnv, corpusSuite, httpCases } from './corpus';

const messages = [{ role: 'user' as const, content: 'hi' }];

/**
 * Mistral's client passes its timeout to `fetch` inside a `Request`, and Node's fetch then follows
 * that signal through AbortControllers it holds only weakly: a GC during the wait loses the abort,
 * and the call hangs for good (Node 20 to 26; it timed the whole suite out once). This fetcher
 * gives `fetch` the request's parts and a timeout signal of its own, which rejects the fetch with
 * the same `TimeoutError` Mistral's own signal would.
 */
function fetchTimingOut(timeoutMs: number) {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!(input instanceof Request)) return fetch(input, init);
    return fetch(input.url, {
      method: input.method,
      headers: input.headers,
      body: await input.text(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  };
}

/** OpenAI's error body (Groq sends the same shape). */
const openAiBody = (status: number) => ({
  error: {
    message: `status ${status}`,
    type: status === 429 ? 'rate_limit_exceeded' : 'api_error',
    code: null,
  },
});

describe('classifier corpus: model providers', () => {
  const env = corpusEnv();
  corpusSuite([
    {
      pkg: 'openai',
      cases: () =>
        httpCases(env, {
          call: (url) =>
            new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create({
              model: 'gpt-4o-mini',
              messages,
            }),
          callWithTimeout: (url, ms) =>
            new OpenAI({
              apiKey: 'sk-test',
              baseURL: `${url}/v1`,
              maxRetries: 0,
              timeout: ms,
            }).chat.completions.create({ model: 'gpt-4o-mini', messages }),
          body: openAiBody,
        }),
    },
    {
      pkg: '@anthropic-ai/sdk',
      cases: () =>
        httpCases(env, {
          call: (url) =>
            new Anthropic({ apiKey: 'sk-ant-test', baseURL: url, maxRetries: 0 }).messages.create({
              model: 'claude-corpus',
              max_tokens: 16,
              messages,
            }),
          callWithTimeout: (url, ms) =>
            new Anthropic({
              apiKey: 'sk-ant-test',
              baseURL: url,
              maxRetries: 0,
              timeout: ms,
            }).messages.create({
              model: 'claude-corpus',
              max_tokens: 16,
              messages,
            }),
          body: (status) => ({
            type: 'error',
            error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message: `status ${status}` },
          }),
        }),
    },
    {
      pkg: '@google/genai',
      cases: () => {
        const generate = (url: string, timeout?: number) =>
          new GoogleGenAI({
            apiKey: 'test-key',
            httpOptions: { baseUrl: url, timeout, retryOptions: { attempts: 1 } },
          }).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
        return httpCases(env, {
          call: (url) => generate(url),
          callWithTimeout: (url, ms) => generate(url, ms),
          // Google APIs' error body: the HTTP status, a message, the canonical status name, and for
          // a 429 the delay in RetryInfo (the client keeps the body as its message, not the headers).
          body: (status) => ({
            error: {
              code: status,
              message: `status ${status}`,
              status: {
                429: 'RESOURCE_EXHAUSTED',
                503: 'UNAVAILABLE',
                401: 'UNAUTHENTICATED',
                404: 'NOT_FOUND',
              }[status],
              ...(status === 429
                ? { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }] }
                : {}),
            },
          }),
          knownMisses: {
            // @google/genai 2.32.0 enforces its timeout with a bare `controller.abort()`: the
            // AbortError it throws is the same as a caller's abort. On an AI SDK tool span the
            // caller's abort signal tells them apart (caller-signal.test.ts).
            'client timeout': 'the client aborts without a reason',
          },
        });
      },
    },
    {
      pkg: '@mistralai/mistralai',
      cases: () => {
        const complete = (url: string, timeoutMs?: number) =>
          new Mistral({
            apiKey: 'test-key',
            serverURL: url,
            retryConfig: { strategy: 'none' },
            timeoutMs,
            httpClient:
              timeoutMs === undefined ? undefined : new HTTPClient({ fetcher: fetchTimingOut(timeoutMs) }),
          }).chat.complete({
            model: 'mistral-small-latest',
            messages,
          });
        return httpCases(env, {
          call: (url) => complete(url),
          callWithTimeout: (url, ms) => complete(url, ms),
          body: (status) => ({
            object: 'error',
            message: `status ${status}`,
            type: 'invalid_request_error',
            code: String(status),
          }),
        });
      },
    },
    {
      pkg: 'cohere-ai',
      cases: () => {
        // cohere-ai 8.1.0 leaves its timeout timer running after an error reply (60 s by default), which
        // would hold the test process open: the calls that are not about timeouts take 2 s.
        const chat = (url: string, timeoutInSeconds = 2) =>
          new CohereClientV2({ token: 'test-key', environment: url }).chat(
            { model: 'command-a-03-2025', messages },
            { maxRetries: 0, timeoutInSeconds },
          );
        return httpCases(env, {
          call: (url) => chat(url),
          callWithTimeout: (url, ms) => chat(url, ms / 1000),
          body: (status) => ({ message: `status ${status}` }),
        });
      },
    },
    {
      pkg: 'groq-sdk',
      cases: () =>
        httpCases(env, {
          call: (url) =>
            new Groq({ apiKey: 'gsk-test', baseURL: url, maxRetries: 0 }).chat.completions.create({
              model: 'llama-3.3-70b-versatile',
              messages,
            }),
          callWithTimeout: (url, ms) =>
            new Groq({
              apiKey: 'gsk-test',
              baseURL: url,
              maxRetries: 0,
              timeout: ms,
            }).chat.completions.create({
              model: 'llama-3.3-70b-versatile',
              messages,
            }),
          body: openAiBody,
        }),
    },
  ]);
});
