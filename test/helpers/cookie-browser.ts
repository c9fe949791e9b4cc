/** A fetch-based "browser" with a cookie jar, for driving IdP and SP over real HTTP without Chromium. */

/** Cookies are per host, not per port, exactly as in a browser (IdP and SP share 127.0.0.1). */
export class CookieBrowser {
  readonly jar = new Map<string, string>();
  get(url: string) {
    return this.send(url, { method: 'GET' });
  }
  postForm(url: string, data: Record<string, string>) {
    return this.send(url, {
      method: 'POST',
      body: new URLSearchParams(data),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  async send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const r = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of r.headers.getSetCookie()) {
      const pair = c.split(';')[0] as string;
      const i = pair.indexOf('=');
      const [name, value] = [pair.slice(0, i), pair.slice(i + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return r;
  }
  /** Follow redirects (GET), resolving relative locations. */
  async follow(url: string, max = 10): Promise<{ url: string; res: Response }> {
    let current = url;
    for (let i = 0; i < max; i++) {
      const res = await this.get(current);
      if (res.status < 300 || res.status >= 400) return { url: current, res };
      current = new URL(res.headers.get('location') as string, current).href;
    }
    throw new Error('too many redirects');
  }
}
