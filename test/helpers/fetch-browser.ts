/**
 * A minimal browser over fetch for end-to-end tests that need no JavaScript: it follows no
 * redirect on its own and keeps cookies in one path-less jar; `signIn` posts the login form (and
 * the consent form when one appears) the way a person would.
 */
import { expect } from 'vitest';

export class FetchBrowser {
  readonly jar = new Map<string, string>();
  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.#send(url, { method: 'GET', headers });
  }
  async postForm(url: string, data: Record<string, string>): Promise<Response> {
    return this.#send(url, {
      method: 'POST',
      body: new URLSearchParams(data),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  async #send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const r = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, i);
      const value = (pair as string).slice(i + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return r;
  }
}

const formAction = (page: string, base: string) =>
  new URL(/<form method="post" action="([^"]+)"/.exec(page)?.[1] as string, base).href;
const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)?.[1] as string;

/**
 * From an authorization URL to the client's callback URL: the login form (unless the browser
 * is signed in already), then the consent form when the IdP asks for one.
 */
export async function signIn(
  browser: FetchBrowser,
  issuer: string,
  authUrl: string,
  creds: { username: string; password: string } = { username: 'demo', password: 'demo' },
): Promise<URL> {
  const r1 = await browser.get(authUrl);
  expect(r1.status, await r1.clone().text()).toBe(303);
  let next = new URL(r1.headers.get('location') as string, issuer);
  const atIdp = () => next.origin === new URL(issuer).origin && next.pathname.includes('/interaction/');
  if (atIdp()) {
    const page = await (await browser.get(next.href)).text();
    if (page.includes('name="password"')) {
      const r = await browser.postForm(formAction(page, issuer), { csrf: csrfOf(page), ...creds });
      expect(r.status).toBe(303);
      next = new URL(r.headers.get('location') as string, issuer);
    }
  }
  if (atIdp()) {
    const consent = await (await browser.get(next.href)).text();
    expect(consent).toContain('Allow access?');
    const r = await browser.postForm(formAction(consent, issuer), {
      csrf: csrfOf(consent),
      decision: 'allow',
    });
    expect(r.status).toBe(303);
    next = new URL(r.headers.get('location') as string, issuer);
  }
  return next;
}
