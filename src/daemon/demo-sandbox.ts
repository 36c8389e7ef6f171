/** The demo's in-process platform (`sandbox.enabled`): it sends its webhooks to our own listener. */
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { SandboxOptions } from '../sandbox/index.js';

/** The sandbox's options from the config: its address and tokens, and where and how to sign its webhooks (`webhookUrl`: the listener's, once it listens). */
export function demoSandboxOptions(config: Config, webhookUrl: string | undefined, logger: Logger): SandboxOptions {
  return {
    host: config.sandbox.host,
    port: config.sandbox.port,
    token: config.platform.token,
    ...(config.sandbox.supplierToken ? { supplierToken: config.sandbox.supplierToken } : {}),
    ...(webhookUrl ? { webhookUrl } : {}),
    ...(config.webhook?.secrets[0] ? { webhookSecret: config.webhook.secrets[0] } : {}),
    // The demo's listener may speak TLS with a self-signed certificate: trust exactly that one.
    ...(config.webhook?.tls ? { webhookCa: config.webhook.tls.cert } : {}),
    demo: config.sandbox.demo,
    logger,
  };
}
