#!/usr/bin/env node
/**
 * Worst-case CPU per SAML message under the default work limits (docs/SAML.md, "Work limits"):
 * the shapes DEFAULT_SAML_LIMITS still admits — as many elements as allowed, in full groups of
 * `maxChildren` siblings (node-saml's XPath child selection is quadratic in sibling count), the
 * deepest nesting, the most attributes, the largest text — at the SP (the example SP's guard,
 * checkSamlHttpMessage, then node-saml as passport-saml calls it, with the ML-DSA integration) and
 * at the IdP (a whole AuthnRequest/LogoutRequest through fastify inject: decoding, limits,
 * parsing, signature check, replay store). Each case reports the median and the maximum CPU time
 * (process.cpuUsage, user + system) over --reps runs after two warm-up runs, in this process.
 *
 *   npm run build && node load/saml-work.mjs [--reps 15] [--before] [--write]
 *
 * --before also times the finding's original message (20,000 siblings, 524 bytes deflated)
 * through node-saml without the guard, once, to show what the limits prevent (seconds of CPU).
 * --write replaces the table between the saml-work markers in docs/SAML.md.
 *
 * CPU time, not wall time, so other load inflates it less; still, run it on a quiet machine for
 * numbers to quote. The target: no admitted message costs more than 50 ms.
 */
import { enter } from './lib/entry.mjs';

await enter({ program: 'load/saml-work.mjs' }, () => import('./lib/main/saml-work.mjs'));
