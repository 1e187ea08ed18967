import { REST } from '@discordjs/rest';
import { Client as HubSpotClient } from '@hubspot/api-client';
import { Client as SendGridClient } from '@sendgrid/client';
import * as postmark from 'postmark';
import Replicate from 'replicate';
import { corpusEnv, outcome, type CorpusCase } from '../corpus/corpus';
import { unseenCases, unseenSuite } from './unseen';

describe('unseen clients: CRM, email, chat and inference APIs', () => {
  const env = corpusEnv();
  const hubspot = (url: string) =>
    new HubSpotClient({
      accessToken: 'pat-na1-test',
      basePath: url,
      numberOfApiCallRetries: 0,
    }).crm.contacts.basicApi.getById('101');
  unseenSuite([
    {
      pkg: '@hubspot/api-client',
      cases: (): CorpusCase[] => {
        // HubSpot's error body: status "error", message, correlationId, category.
        const error = {
          429: ['You have reached your ten_secondly_rolling limit.', 'RATE_LIMITS'],
          503: ['Service Unavailable', 'SERVICE_UNAVAILABLE'],
          401: [
            'Authentication credentials not found. This API supports OAuth 2.0 authentication.',
            'INVALID_AUTHENTICATION',
          ],
          404: ['Object not found.  objectId are usually numeric.', 'OBJECT_NOT_FOUND'],
        };
        return [
          ...unseenCases(env, {
            call: hubspot,
            // The HubSpot client has no timeout option (nor a signal).
            body: (status) => {
              const [message, category] = error[status as keyof typeof error];
              return {
                status: 'error',
                message,
                correlationId: '3f6f6a3e-9f0b-4bd5-8f0e-2f6c1b3a7d11',
                category,
                ...(status === 429 ? { errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' } : {}),
              };
            },
          }),
          {
            // HubSpot's daily cap on an account's API calls: a quota.
            scenario: '429 daily limit',
            call: () => {
              env.api.reply({
                status: 429,
                body: {
                  status: 'error',
                  message: 'You have reached your daily limit.',
                  errorType: 'RATE_LIMIT',
                  correlationId: '3f6f6a3e-9f0b-4bd5-8f0e-2f6c1b3a7d12',
                  policyName: 'DAILY',
                },
              });
              return hubspot(env.api.url);
            },
            expected: outcome.quota(),
          },
        ];
      },
    },
    {
      pkg: '@sendgrid/client',
      cases: () => {
        const send = (url: string, timeout?: number) => {
          const client = new SendGridClient();
          client.setApiKey('SG.test');
          client.setDefaultRequest('baseUrl', url);
          // A default request option goes to axios as it is: `timeout` is axios's (its types lack it).
          if (timeout !== undefined) client.setDefaultRequest({ timeout } as never);
          return client.request({
            method: 'POST',
            url: '/v3/mail/send',
            body: { personalizations: [{ to: [{ email: 'b@example.com' }] }] },
          });
        };
        const message = {
          429: 'too many requests',
          503: 'service unavailable',
          401: 'The provided authorization grant is invalid, expired, or revoked',
          404: 'resource not found',
        };
        return unseenCases(env, {
          call: (url) => send(url),
          callWithTimeout: (url, ms) => send(url, ms),
          // SendGrid's error body: `{ errors: [{ message, field, help }] }`.
          body: (status) => ({
            errors: [{ message: message[status as keyof typeof message], field: null, help: null }],
          }),
        });
      },
    },
    {
      pkg: 'postmark',
      cases: () => {
        const send = (url: string, timeoutSeconds?: number) =>
          new postmark.ServerClient('server-token', {
            requestHost: new URL(url).host,
            useHttps: false,
            timeout: timeoutSeconds,
          }).sendEmail({ From: 'a@example.com', To: 'b@example.com', Subject: 'hi', TextBody: 'hi' });
        // Postmark's error body: its own `ErrorCode` (not the HTTP status) and `Message`.
        const error = {
          429: [429, 'Rate limit exceeded.'],
          503: [0, 'Service Unavailable'],
          401: [
            10,
            'The Server Token you provided in the X-Postmark-Server-Token request header was invalid.',
          ],
          404: [0, 'Not Found'],
        };
        return unseenCases(env, {
          call: (url) => send(url),
          // `timeout` is in seconds.
          callWithTimeout: (url, ms) => send(url, ms / 1000),
          body: (status) => {
            const [ErrorCode, Message] = error[status as keyof typeof error];
            return { ErrorCode, Message };
          },
          expect: {
            // Postmark keeps only the text of a failed fetch ("fetch failed"): no code, no cause, so
            // the class is the error.type (as Resend's application_error in the first corpus).
            refused: { errorType: 'PostmarkError', kind: 'network', retryable: true, executed: true },
          },
        });
      },
    },
    {
      pkg: '@discordjs/rest',
      cases: () => {
        const getChannel = (url: string, timeout = 15_000) =>
          new REST({
            api: url,
            version: '10',
            retries: 0,
            timeout,
            // Otherwise the client waits out a 429 itself and tries again.
            rejectOnRateLimit: () => true,
          })
            .setToken('bot-token')
            .get('/channels/123456789012345678');
        return unseenCases(env, {
          call: (url) => getChannel(url),
          // `timeout` aborts its request with a bare `abort()`.
          callWithTimeout: (url, ms) => getChannel(url, ms),
          // Discord's error body: `{ message, code }`, its own code; a 429 adds retry_after.
          body: (status) =>
            ({
              429: { message: 'You are being rate limited.', retry_after: 2, global: false },
              503: { message: 'Service Unavailable', code: 0 },
              401: { message: '401: Unauthorized', code: 0 },
              404: { message: 'Unknown Channel', code: 10003 },
            })[status],
        });
      },
    },
    {
      pkg: 'replicate',
      cases: () => {
        // Replicate retries a 429 (and a GET's 5xx) by itself and has no option to stop it; its
        // retries happen at once here (the server answers the same each time).
        const create = (url: string, timeoutMs?: number) =>
          new Replicate({ auth: 'r8_test', baseUrl: url }).predictions.create({
            version: '5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa',
            input: { prompt: 'hi' },
            // Replicate has no timeout option: its methods take a signal.
            signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
          });
        // Replicate's error body, a problem detail: `{ title, detail, status }`.
        const error = {
          429: ['Request was throttled.', 'Request was throttled. Expected available in 2 seconds.'],
          503: ['Service Unavailable', 'The service is temporarily unavailable.'],
          401: ['Unauthenticated', 'You did not pass a valid authentication token'],
          404: ['Not found', 'The requested resource could not be found.'],
        };
        return unseenCases(env, {
          call: (url) => create(url),
          callWithTimeout: (url, ms) => create(url, ms),
          body: (status) => {
            const [title, detail] = error[status as keyof typeof error];
            return { title, detail, status };
          },
        });
      },
    },
  ]);
});
