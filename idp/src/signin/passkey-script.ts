/**
 * The one script of the sign-in pages, served as a static file (GET /signin/passkey.js) and
 * allowed by the pages' CSP by its exact URL, with a Subresource Integrity hash: no inline
 * script, no 'unsafe-inline'. It only enhances: a page works without it for password users, and
 * passkey forms stay hidden unless it runs in a browser that has WebAuthn.
 *
 * What it does: on a `form[data-passkey]`, un-hide it; on its button, POST the CSRF token to
 * `data-options` for the ceremony's options, run navigator.credentials.get() or .create(), put
 * the credential's JSON into the form's `credential` field, and submit the form like any other.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { endpoints } from '../context.ts';
import { sendPage } from '../ui/html.ts';

const SOURCE = `'use strict';
(function () {
  var form = document.querySelector('form[data-passkey]');
  if (!form || !window.PublicKeyCredential || !navigator.credentials) return;
  var mode = form.getAttribute('data-passkey');
  var button = form.querySelector('button[data-passkey-start]');
  var status = document.getElementById('passkey-status');
  var say = function (text) { if (status) status.textContent = text; };
  form.hidden = false;

  var toBytes = function (s) {
    var b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
    var out = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
    return out.buffer;
  };
  var toB64u = function (buf) {
    var bytes = new Uint8Array(buf), s = '';
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };
  var descriptors = function (list) {
    return (list || []).map(function (c) { return Object.assign({}, c, { id: toBytes(c.id) }); });
  };
  // WebAuthn Level 3 has parse*OptionsFromJSON and toJSON; older browsers get the same by hand.
  var parseOptions = function (o) {
    if (mode === 'create') {
      if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
      return Object.assign({}, o, {
        challenge: toBytes(o.challenge),
        user: Object.assign({}, o.user, { id: toBytes(o.user.id) }),
        excludeCredentials: descriptors(o.excludeCredentials),
      });
    }
    if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
    return Object.assign({}, o, { challenge: toBytes(o.challenge), allowCredentials: descriptors(o.allowCredentials) });
  };
  var toJSON = function (cred) {
    if (typeof cred.toJSON === 'function') return cred.toJSON();
    var r = cred.response, json = { id: cred.id, rawId: toB64u(cred.rawId), type: cred.type,
      authenticatorAttachment: cred.authenticatorAttachment || undefined,
      clientExtensionResults: cred.getClientExtensionResults(), response: { clientDataJSON: toB64u(r.clientDataJSON) } };
    if (r.attestationObject) {
      json.response.attestationObject = toB64u(r.attestationObject);
      json.response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      json.response.authenticatorData = toB64u(r.authenticatorData);
      json.response.signature = toB64u(r.signature);
      if (r.userHandle) json.response.userHandle = toB64u(r.userHandle);
    }
    return json;
  };

  button.addEventListener('click', function () {
    button.disabled = true;
    say(mode === 'create' ? 'Follow your browser to create the passkey…' : 'Follow your browser to use your passkey…');
    fetch(form.getAttribute('data-options'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ csrf: form.elements.csrf.value }),
    })
      .then(function (res) {
        if (res.status === 429) throw new Error('Too many failed attempts. Wait a few minutes and try again.');
        if (!res.ok) throw new Error('This page has expired. Reload it and try again.');
        return res.json();
      })
      .then(function (options) {
        var publicKey = parseOptions(options);
        return mode === 'create' ? navigator.credentials.create({ publicKey: publicKey }) : navigator.credentials.get({ publicKey: publicKey });
      })
      .then(function (cred) {
        if (!cred) throw new Error('No passkey was chosen.');
        form.elements.credential.value = JSON.stringify(toJSON(cred));
        say('Checking…');
        form.submit();
      })
      .catch(function (e) {
        button.disabled = false;
        say(e && e.name === 'NotAllowedError' ? 'The passkey request was cancelled or timed out.'
          : e && e.name === 'InvalidStateError' ? 'This authenticator already holds a passkey for your account.'
          : (e && e.message) || 'The passkey request failed.');
      });
  });
})();
`;

export const PASSKEY_SCRIPT = {
  source: SOURCE,
  /** Subresource Integrity value for the script tag. */
  integrity: `sha256-${createHash('sha256').update(SOURCE).digest('base64')}`,
  /** Short content hash for the URL, so a changed script is never served from a stale cache. */
  version: createHash('sha256').update(SOURCE).digest('base64url').slice(0, 12),
  path: '/signin/passkey.js',
};

/** How the pages reference passkey.js, and the CSP source that allows exactly that file. */
export interface ScriptRef {
  /** The versioned URL of the script tag. */
  src: string;
  /** The script's absolute URL, without the version: the page's `script-src`. */
  csp: string;
}

export function passkeyScript(issuer: string): ScriptRef {
  const { prefix } = endpoints(issuer);
  const path = `${prefix}${PASSKEY_SCRIPT.path}`;
  return { src: `${path}?v=${PASSKEY_SCRIPT.version}`, csp: `${new URL(issuer).origin}${path}` };
}

/** Send a page that may run passkey.js, which fetches its ceremony's options from this origin. */
export function sendScripted(
  reply: FastifyReply,
  status: number,
  html: string,
  script: ScriptRef,
  formTargets: string[] = [],
): FastifyReply {
  return sendPage(reply, status, html, formTargets, [script.csp], ["'self'"]);
}

/** GET /signin/passkey.js. */
export function passkeyScriptRoute(app: FastifyInstance): void {
  app.get(PASSKEY_SCRIPT.path, async (_req, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      // Versioned URL: a new script gets a new URL, so this one may be cached for long.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(PASSKEY_SCRIPT.source),
  );
}
