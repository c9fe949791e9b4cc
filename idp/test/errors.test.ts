/** The one error mapper: every kind of failure and the OAuth answer it gets (RFC 6749 §5.2). */
import { SignerFailed } from '@pqid/jose';
import { describe, expect, it } from 'vitest';
import { ClientError } from '../src/clients/clients.ts';
import {
  ConfigError,
  IdpError,
  OAuthError,
  SignerUnavailable,
  StorageUnavailable,
} from '../src/errors/index.ts';
import { asIdpError, errorAnswer } from '../src/http/errors.ts';
import { UnknownSigningAlgorithm } from '../src/keys/key-manager.ts';
import { PasskeyError } from '../src/signin/passkeys/errors.ts';

const NO_STORE = { 'cache-control': 'no-store' };

describe('errorAnswer', () => {
  it('sends an OAuthError as it is, with its challenge', () => {
    const e = new OAuthError('invalid_token', 'expired', 401, {
      'www-authenticate': 'Bearer error="invalid_token"',
    });
    expect(errorAnswer(e)).toEqual({
      status: 401,
      headers: { ...NO_STORE, 'www-authenticate': 'Bearer error="invalid_token"' },
      body: { error: 'invalid_token', error_description: 'expired' },
    });
  });

  it('answers outages with 503 and Retry-After, and says nothing of the cause', () => {
    expect(errorAnswer(new StorageUnavailable('pg: ECONNREFUSED 10.0.0.5', { retryAfter: 2 }))).toEqual({
      status: 503,
      headers: { ...NO_STORE, 'retry-after': '2' },
      body: {
        error: 'temporarily_unavailable',
        error_description: 'the service is temporarily unavailable, retry later',
      },
    });
    const kms = new SignerFailed('the ML-DSA-65 signer failed: throttled');
    expect(asIdpError(kms)).toBeInstanceOf(SignerUnavailable);
    expect(errorAnswer(kms)).toEqual({
      status: 503,
      headers: { ...NO_STORE, 'retry-after': '5' },
      body: { error: 'temporarily_unavailable', error_description: 'signing is temporarily unavailable' },
    });
  });

  it("maps fastify's schema and 4xx errors to invalid_request", () => {
    const validation = Object.assign(new Error('body/grant_type must be string'), {
      validation: [{}],
      statusCode: 400,
    });
    expect(errorAnswer(validation).body).toEqual({
      error: 'invalid_request',
      error_description: 'invalid parameters: body/grant_type must be string',
    });
    const tooLarge = Object.assign(new Error('Request body is too large'), { statusCode: 413 });
    expect(errorAnswer(tooLarge)).toMatchObject({ status: 413, body: { error: 'invalid_request' } });
  });

  it('hides faults: a 500 server_error whose message stays in the log', () => {
    for (const e of [
      new TypeError('secret detail'),
      new ConfigError('secret detail'),
      new UnknownSigningAlgorithm('secret detail'),
      'a string',
    ])
      expect(errorAnswer(e)).toEqual({
        status: 500,
        headers: NO_STORE,
        body: { error: 'server_error', error_description: 'internal error' },
      });
  });

  it('shows bad input of the IdP families with its status and message', () => {
    expect(errorAnswer(new ClientError('redirect_uris must be https', 'redirect_uris'))).toEqual({
      status: 400,
      headers: NO_STORE,
      body: { error: 'invalid_request', error_description: 'redirect_uris must be https' },
    });
    const passkey = new PasskeyError('challenge_invalid', 'the challenge expired');
    expect(passkey).toBeInstanceOf(IdpError);
    expect(passkey).toMatchObject({ code: 'challenge_invalid', status: 400, expose: true });
  });
});
