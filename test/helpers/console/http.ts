/** A request with every header under the test's control (fetch will not send another Host), answering status, headers and body. */
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export function send(url: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: o.method ?? 'GET', headers: o.headers ?? {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

/** A form body as browsers send it. */
export function form(fields: Record<string, string>): { body: string; headers: Record<string, string> } {
  return { body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}

/** Sign in as a script: the session cookie and the CSRF token. */
export async function signIn(url: string, password: string, name = 'script'): Promise<{ cookie: string; csrfToken: string }> {
  const { body, headers } = form({ name, password });
  const answer = await send(`${url}/login`, { method: 'POST', body, headers: { ...headers, accept: 'application/json' } });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${answer.body}`);
  const cookie = String(answer.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  return { cookie, csrfToken: answer.json<{ csrfToken: string }>().csrfToken };
}
