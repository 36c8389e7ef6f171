/**
 * The daemon config: one YAML file, validated once at the edge by these schemas (each section in
 * its own file) and frozen. Every key is documented in `config/connector.example.yaml`.
 */
import { z } from 'zod';
import { pathSchema } from './common.js';
import { platformSchema } from './platform-schema.js';
import { flowSchema } from './flow-schema.js';
import { intakeSchema } from './intake-schema.js';
import { deliverySchema } from './delivery-schema.js';
import { webhookSchema } from './webhook-schema.js';
import { exportSchema } from './export-schema.js';
import { serviceKeys } from './service-schema.js';

export const configSchema = z
  .strictObject({
    /** Folder of the SQLite store. Default ./var/state. */
    stateDir: pathSchema.default('./var/state').describe('Folder of the SQLite store. Default ./var/state.'),
    platform: platformSchema.describe('Where the procurement platform is and how to reach it.'),
    flows: z
      .array(flowSchema)
      .min(1, 'must list at least one flow')
      .describe('Each ERP folder the daemon serves: its kind, inbox, mapping and results folder.'),
    /** What the intakes of all flows share: how many files are taken at once. */
    intake: intakeSchema.default(intakeSchema.parse({})).describe('What the intakes of all flows share: how many files are read and recorded at once.'),
    delivery: deliverySchema.default(deliverySchema.parse({})).describe('How the outbox is sent: concurrency, rate, backoff, leases, circuit breaker.'),
    /** The webhook listener; omit to run without one. */
    webhook: webhookSchema.optional().describe("The listener for the platform's signed status events; omit to run without one."),
    /** Where status changes are written; required with `webhook`. */
    export: exportSchema.optional().describe('Where status changes are written for the ERP to import; required with webhook.'),
    ...serviceKeys,
  })
  .superRefine((config, ctx) => {
    const names = new Set<string>();
    config.flows.forEach((flow, index) => {
      if (names.has(flow.name)) ctx.addIssue({ code: 'custom', path: ['flows', index, 'name'], message: `duplicate flow name "${flow.name}"` });
      names.add(flow.name);
      if (flow.enterpriseData && flow.kind !== 'requests') {
        ctx.addIssue({ code: 'custom', path: ['flows', index, 'enterpriseData'], message: "is for a requests flow (1C's purchase orders become requests)" });
      }
    });
    const exchangeFolders = new Map<string, string>();
    for (const flow of config.flows) {
      if (!flow.enterpriseData) continue;
      const other = exchangeFolders.get(flow.inbox);
      if (other !== undefined) {
        const index = config.flows.indexOf(flow);
        ctx.addIssue({
          code: 'custom',
          path: ['flows', index, 'inbox'],
          message: `is the exchange folder of flow "${other}" too: each exchange needs a folder of its own`,
        });
      }
      exchangeFolders.set(flow.inbox, flow.name);
    }
    if (config.webhook && !config.export) {
      ctx.addIssue({ code: 'custom', path: ['export'], message: 'is required when webhook is configured' });
    }
    if (config.webhook?.requireSignature && config.webhook.secrets.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['webhook', 'secrets'], message: 'needs at least one secret while requireSignature is true' });
    }
  });

export type Config = Readonly<z.infer<typeof configSchema>>;
export type { FlowConfig, FlowKind } from './flow-schema.js';
export type { IntakeConfig } from './intake-schema.js';
export type { PlatformConfig } from './platform-schema.js';
export type { DeliveryConfig } from './delivery-schema.js';
export type { WebhookConfig } from './webhook-schema.js';
export type { ExportConfig } from './export-schema.js';
export type { ConsoleConfig, ConsoleLanguage } from './console-schema.js';
