/** The console's actions done by the stages they belong to: a real intake and a real dispatcher on a real store. */
import { describe, expect, it } from 'vitest';
import { createOperatorActions } from '../../src/daemon/operator-actions.js';
import type { ReloadResult } from '../../src/daemon/reload.js';
import { fastDelivery, platformConfig, withDispatcher } from '../helpers/with-dispatcher.js';
import { withIntake, type IntakeFixture } from '../helpers/with-intake.js';

/** The actions over the fixture's intake and a dispatcher for its flow (towards a closed port: nothing is due, nothing is sent). */
async function withActions(fn: (actions: ReturnType<typeof createOperatorActions>, f: IntakeFixture) => Promise<void>, reload?: () => ReloadResult) {
  await withIntake({}, async (f) => {
    const deps = { db: f.db, flows: [f.flow], platform: platformConfig('http://127.0.0.1:9', 't0ken-for-actions-test'), delivery: fastDelivery() };
    await withDispatcher(deps, async ({ dispatcher }) => {
      const actions = createOperatorActions({ intakes: new Map([[f.flow.name, f.intake]]), dispatcher, reload: reload ?? (() => ({ ok: true })) });
      await fn(actions, f);
    });
  });
}

describe('createOperatorActions', () => {
  it('retakes a file through its flow’s intake, and refuses a flow the daemon does not run', async () => {
    await withActions(async (actions, f) => {
      await expect(actions.retakeFile('other', 1)).rejects.toMatchObject({ code: 'CONSOLE_ACTION_FAILED', message: 'There is no flow other' });
      // The flow exists: the intake answers for itself (it knows no file 99).
      await expect(actions.retakeFile(f.flow.name, 99)).rejects.toMatchObject({
        code: 'CONSOLE_ACTION_FAILED',
        message: `File 99 is not a file of flow ${f.flow.name}`,
      });
    });
  });

  it('shows a flow’s gate as a copy of four fields, and nothing for an unknown flow', async () => {
    await withActions(async (actions, f) => {
      const view = actions.flowGate(f.flow.name);
      expect(view).toEqual({ mode: 'closed', nextProbeAt: expect.any(Number), consecutiveFailures: 0, probeInFlight: false });
      expect(Object.keys(view!).sort()).toEqual(['consecutiveFailures', 'mode', 'nextProbeAt', 'probeInFlight']);
      expect(actions.flowGate('other')).toBeUndefined();
      // Sending freely: nothing to resume.
      expect(actions.resumeFlow(f.flow.name)).toBe(false);
      expect(actions.resumeFlow('other')).toBe(false);
    });
  });

  it('reloads the mappings with the daemon’s own reload, and passes its verdict on', async () => {
    let reloads = 0;
    const refused: ReloadResult = { ok: false, errors: ['flow requests: broken'] };
    await withActions(
      async (actions) => {
        expect(actions.reloadMappings()).toEqual(refused);
        expect(reloads).toBe(1);
      },
      () => {
        reloads += 1;
        return refused;
      },
    );
  });
});
