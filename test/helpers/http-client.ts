/**
 * A browser stand-in over real HTTP: fetch with a cookie jar per host (cookies ignore ports, as
 * in a browser), manual redirects, form posts and JSON posts. For end-to-end flows that need no
 * rendering, e.g. a passkey ceremony answered by the test-only software authenticator.
 */
export class HttpClient {
  /** host → cookie name → value */
  readonly jars = new Map<string, Map<string, string>>();

  jar(url: string): Map<string, string> {
    const host = new URL(url).hostname;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    return jar;
  }

  async send(url: string, init: RequestInit = {}): Promise<Response> {
    const jar = this.jar(url);
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0] as string;
      const i = pair.indexOf('=');
      const [name, value] = [pair.slice(0, i), pair.slice(i + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  get(url: string) {
    return this.send(url);
  }

  postForm(url: string, data: Record<string, string>) {
    return this.send(url, {
      method: 'POST',
      body: new URLSearchParams(data),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  postJson(url: string, data: unknown) {
    return this.send(url, {
      method: 'POST',
      body: JSON.stringify(data),
      headers: { 'content-type': 'application/json' },
    });
  }

  /** Follow redirects from `res` (answered at `url`) with GETs; the final URL and response. */
  async follow(url: string, res?: Response, max = 10): Promise<{ url: string; res: Response }> {
    let current = url;
    let r = res ?? (await this.get(url));
    for (let i = 0; i < max && r.status >= 300 && r.status < 400; i++) {
      current = new URL(r.headers.get('location') as string, current).href;
      r = await this.get(current);
    }
    return { url: current, res: r };
  }
}

export const csrfIn = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] as string;
