/** The webhook stage: the listener, its admission ladder, signature verification, the event inbox. */
export { createWebhookListener, type WebhookListener, type WebhookListenerDeps } from './create-webhook-listener.js';
export { admitWebhook, type Admission, type AdmissionPolicy, type RequestHead } from './admit-webhook.js';
export { verifySignature, type SignatureVerdict } from './verify-signature.js';
