/** `withSandbox(options, fn)`: a real sandbox on a free port for the test, stopped whatever happens. */
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export async function withSandbox<T>(options: SandboxOptions, fn: (sandbox: Sandbox) => Promise<T> | T): Promise<T> {
  const sandbox = await startSandbox(options);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.stop();
  }
}

/** externalId → the Idempotency-Keys it was sent under (create calls that reached the sandbox). */
export function keysByExternalId(sandbox: Sandbox): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const call of sandbox.calls()) {
    if (call.method !== 'POST' || !call.path.endsWith('/requests')) continue;
    const body = call.body as { externalId?: unknown } | null;
    if (!body || typeof body !== 'object' || typeof body.externalId !== 'string') continue;
    const key = call.headers['idempotency-key'];
    const set = keys.get(body.externalId) ?? new Set<string>();
    set.add(Array.isArray(key) ? key.join(',') : String(key));
    keys.set(body.externalId, set);
  }
  return keys;
}
