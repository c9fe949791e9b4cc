/** Request schemas of the sign-in and account pages (fastify validates them before a handler runs). */

/** A form or JSON post that carries only the page's CSRF token. */
export const csrfOnly = {
  type: 'object',
  required: ['csrf'],
  properties: { csrf: { type: 'string', maxLength: 256 } },
} as const;

export const loginBodySchema = {
  type: 'object',
  required: ['csrf'],
  properties: {
    csrf: { type: 'string', maxLength: 256 },
    username: { type: 'string', maxLength: 256 },
    password: { type: 'string', maxLength: 1024 },
  },
} as const;

/** An ML-DSA-87 assertion is ~6.3 KB of JSON, an attestation ~10.5 KB. */
export const credentialBodySchema = {
  type: 'object',
  required: ['csrf', 'credential'],
  properties: {
    csrf: { type: 'string', maxLength: 256 },
    credential: { type: 'string', maxLength: 32768 },
    name: { type: 'string', maxLength: 256 },
  },
} as const;

export const consentBodySchema = {
  type: 'object',
  required: ['csrf', 'decision'],
  properties: {
    csrf: { type: 'string', maxLength: 256 },
    decision: { type: 'string', enum: ['allow', 'deny'] },
  },
} as const;

export const removeBodySchema = {
  type: 'object',
  required: ['csrf', 'id'],
  properties: { csrf: { type: 'string', maxLength: 256 }, id: { type: 'string', maxLength: 1400 } },
} as const;

export const enrolBodySchema = {
  type: 'object',
  required: ['csrf', 'code'],
  properties: { csrf: { type: 'string', maxLength: 256 }, code: { type: 'string', maxLength: 64 } },
} as const;

/** The parked interaction a page belongs to. */
export const uidParams = {
  type: 'object',
  required: ['uid'],
  properties: { uid: { type: 'string', maxLength: 64 } },
} as const;

/** GET /account?done=…: which action just succeeded. */
export const accountQuery = {
  type: 'object',
  properties: { done: { type: 'string', maxLength: 16 } },
} as const;
