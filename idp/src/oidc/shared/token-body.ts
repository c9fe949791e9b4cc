/**
 * The body of the endpoints a client calls about a token it holds (introspection, RFC 7662 §2.1;
 * revocation, RFC 7009 §2.1): the token, an optional hint, and client authentication.
 */
export const tokenBodySchema = {
  type: 'object',
  required: ['token'],
  properties: {
    // A JWT access token signed with ML-DSA-87 or a composite is ~7–10 KB.
    token: { type: 'string', maxLength: 32768 },
    token_type_hint: { type: 'string', maxLength: 64 },
    client_id: { type: 'string', maxLength: 4096 },
    client_secret: { type: 'string', maxLength: 4096 },
    client_assertion_type: { type: 'string', maxLength: 4096 },
    client_assertion: { type: 'string', maxLength: 32768 },
  },
} as const;

export type TokenBody = Partial<Record<string, string>> & { token: string };
