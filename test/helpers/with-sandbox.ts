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
