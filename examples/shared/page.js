/**
 * The one small page layout of the example apps (the RP and the SAML SP), so that they look
 * alike and stay readable from a phone to a desktop: a centred column, tables and code that wrap
 * instead of widening the page, links styled as buttons with a visible focus ring.
 */

const ESC = /** @type {Record<string, string>} */ ({
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
});

/** @param {unknown} s */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ESC[c] ?? c);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a}
main{max-width:46rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem;line-height:1.25}
pre{background:#f4f4f4;padding:.75rem;overflow:auto;font-size:.85rem}
code,td{overflow-wrap:anywhere}
.ok{color:#05612a}.error{color:#a1150c}
table{border-collapse:collapse}td,th{text-align:left;vertical-align:top;padding:.2rem .8rem .2rem 0}
a.button{display:inline-block;margin:.3rem .5rem .3rem 0;padding:.5rem 1rem;background:#1a4b8c;color:#fff;text-decoration:none;border-radius:4px}
a:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}`;

/**
 * A complete HTML document.
 * @param {string} title  plain text (escaped here)
 * @param {string} body   HTML (escape what you put in it with esc())
 */
export const page = (title, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head><body><main>
${body}
</main></body></html>`;

/**
 * A page that says something went wrong, with a way back to the start.
 * @param {string} title  plain text, the page's heading
 * @param {string} body   HTML explaining what happened
 */
export const errorPage = (title, body) =>
  page(
    title,
    `<h1 class="error">${esc(title)}</h1>${body}<p><a class="button" href="/">Back to the start</a></p>`,
  );
