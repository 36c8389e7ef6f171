/** The webhook stage: the listener, signature verification, the event inbox. */
export { createWebhookListener, type WebhookListener, type WebhookListenerDeps } from './create-webhook-listener.js';
export { verifySignature, signBody, SIGNATURE_HEADER, type SignatureVerdict } from './verify-signature.js';
export { checkReadiness, type ReadinessReport } from './readiness.js';
export { parseAllowList } from './allow-from.js';
