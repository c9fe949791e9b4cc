/** Minimal server-side HTML: escaping, one accessible layout, and the security headers for it. */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c] as string);

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1d21}
main{max-width:24rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}
label{display:block;margin-top:1rem;font-weight:600}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.6rem;margin-top:.3rem;font-size:1rem;border:1px solid #767676;border-radius:4px}
input:focus,button:focus{outline:3px solid #1a5fb4;outline-offset:2px}
button{margin-top:1.5rem;width:100%;padding:.7rem;font-size:1rem;background:#1a5fb4;color:#fff;border:0;border-radius:4px;cursor:pointer}
.error{background:#fdecea;border:1px solid #b3261e;color:#8c1d18;padding:.6rem;border-radius:4px}
.muted{color:#555;font-size:.9rem}
button.secondary{background:#fff;color:#1a5fb4;border:1px solid #1a5fb4}
ul.scopes{padding-left:1.2rem}
.notice{background:#eef4fc;border:1px solid #1a5fb4;padding:.6rem;border-radius:4px}
p.or{text-align:center;margin:1.2rem 0 0}
ul.passkeys{list-style:none;padding:0}li.passkey{border-top:1px solid #ddd;padding:.8rem 0}
li.passkey button{margin-top:.5rem;width:auto;padding:.4rem 1rem}
a{color:#1a5fb4}a:focus{outline:3px solid #1a5fb4;outline-offset:2px}
ul.links{padding-left:1.2rem}ul.links li{margin:.6rem 0}
nav.leave{display:flex;flex-wrap:wrap;gap:1rem;margin-top:2rem;padding-top:1rem;border-top:1px solid #ddd}
h2{font-size:1.1rem;margin-top:1.8rem}
@media (max-width:30rem){main{margin:0;border-radius:0;box-shadow:none;padding:1.25rem}}`;

/** Whether the request is a browser's: it accepts HTML (a JSON client would not say so). */
export const acceptsHtml = (req: FastifyRequest): boolean =>
  String(req.headers.accept ?? '')
    .toLowerCase()
    .includes('text/html');

/** A fixed inline script is allowed by its hash, so the CSP needs no 'unsafe-inline' for scripts. */
export function inlineScript(code: string): { tag: string; hash: string } {
  return {
    tag: `<script>${code}</script>`,
    hash: `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
  };
}

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · pqid</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * Pages are never cached or framed. `form-action` must allow the client's redirect target too:
 * browsers apply it to the redirect that follows a form submission. `scripts` are CSP sources:
 * hashes of inline scripts, or the exact URL of a static one; `connect` lets a script fetch;
 * `frames` are the origins the page may load in iframes (front-channel logout only).
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  formTargets: string[] = [],
  scripts: string[] = [],
  connect: string[] = [],
  frames: string[] = [],
): FastifyReply {
  const formAction = ["'self'", ...formTargets].join(' ');
  const scriptSrc = scripts.length ? `; script-src ${scripts.join(' ')}` : '';
  const connectSrc = connect.length ? `; connect-src ${connect.join(' ')}` : '';
  const frameSrc = frames.length ? `; frame-src ${frames.join(' ')}` : '';
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'${scriptSrc}${connectSrc}${frameSrc}`,
    })
    .send(html);
}

/** 303 so the browser follows with a GET, whatever method brought it here; never cached. */
export function redirect303(reply: FastifyReply, url: string): FastifyReply {
  return reply.code(303).header('cache-control', 'no-store').redirect(url, 303);
}
