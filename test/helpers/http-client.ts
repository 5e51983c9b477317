/** A small cookie-keeping HTTP client for API and page tests against the real server. */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export class TestClient {
  private readonly cookies = new Map<string, string>();
  constructor(public readonly baseUrl: string) {}

  cookie(name: string) { return this.cookies.get(name); }
  clearCookies() { this.cookies.clear(); }

  async request<T = any>(method: string, path: string, opts: { json?: unknown; form?: Record<string, string | string[]>; headers?: Record<string, string>; body?: RequestInit['body'] } = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json, text/html;q=0.9', ...opts.headers };
    let body: RequestInit['body'] | undefined = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) for (const one of Array.isArray(v) ? v : [v]) p.append(k, one);
      body = p.toString();
    }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, text, body: parsed as T };
  }

  get<T = any>(path: string, headers?: Record<string, string>) { return this.request<T>('GET', path, { headers }); }
  post<T = any>(path: string, json?: unknown) { return this.request<T>('POST', path, { json: json ?? {} }); }
  put<T = any>(path: string, json?: unknown) { return this.request<T>('PUT', path, { json: json ?? {} }); }
  patch<T = any>(path: string, json?: unknown) { return this.request<T>('PATCH', path, { json: json ?? {} }); }
  delete<T = any>(path: string) { return this.request<T>('DELETE', path, { json: {} }); }

  /** A binary answer (an XLSX export) as bytes, with the session's cookies. */
  async getBytes(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.baseUrl + path, { headers, redirect: 'manual' });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  /** The CSRF token a page embeds for its forms (read from any page's hidden input). */
  async csrfToken(path = '/login'): Promise<string> {
    const page = await this.get(path, { accept: 'text/html' });
    const m = page.text.match(/name="_csrf" value="([^"]+)"/);
    if (!m) throw new Error(`no CSRF token on ${path} (status ${page.status})`);
    return m[1]!;
  }

  /**
   * Posts multipart/form-data (an upload). The CSRF token goes in the X-CSRF-Token header
   * (API clients), the ?_csrf= query (HTML forms), or nowhere (to test the refusal).
   */
  async upload(path: string, fields: Record<string, string>, file?: { name: string; type: string; bytes: Uint8Array }, csrf: 'header' | 'query' | 'none' = 'header') {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    if (file) fd.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
    const headers: Record<string, string> = {};
    let url = path;
    if (csrf !== 'none') {
      const token = await this.csrfToken();
      if (csrf === 'header') headers['x-csrf-token'] = token;
      else url += `${url.includes('?') ? '&' : '?'}_csrf=${encodeURIComponent(token)}`;
    }
    return this.request('POST', url, { body: fd, headers });
  }

  /** Posts an HTML form with its CSRF token, as a browser without JavaScript would. */
  async submitForm(path: string, form: Record<string, string | string[]>, tokenFrom?: string) {
    const _csrf = await this.csrfToken(tokenFrom ?? path);
    return this.request('POST', path, { form: { ...form, _csrf }, headers: { accept: 'text/html' } });
  }
}
