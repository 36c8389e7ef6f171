/** What the exporter writes and where: status files first, an acknowledgement channel per flow, each folder made once. */
import { describe, expect, it } from 'vitest';
import type { ExportFormat } from '../../src/config/export-format-schema.js';
import { exportFolders, exportTargets } from '../../src/daemon/export-targets.js';
import { readReloadables } from '../../src/daemon/reload.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { FAST_INTAKE_YAML, writeConfig } from '../helpers/with-daemon.js';

/** Two flows; `requests` writes its acknowledgements where the status files go. */
const TWO_FLOWS = `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:9", token: t0ken-for-export-test, sourceSystem: erp-test }
flows:
  - name: requests
    kind: requests
    inbox: {dir}/requests
    mapping: {repo}/config/mappings/1c-requests.yaml
    results: {dir}/import
${FAST_INTAKE_YAML}
  - name: other
    kind: requests
    inbox: {dir}/other
    mapping: {repo}/config/mappings/1c-requests.yaml
    results: {dir}/other-import
${FAST_INTAKE_YAML}
metrics: { enabled: false }`;

function ackFormatsOf(config: Parameters<typeof readReloadables>[0]): Map<string, ExportFormat> {
  const read = readReloadables(config);
  if (!read.ok) throw new Error(read.errors.join('\n'));
  return read.reloadables.ackFormats;
}

describe('exportTargets', () => {
  it('puts the status files first, then each flow’s acknowledgements, a file per event in its results folder', async () => {
    await withTempDir((dir) => {
      const config = writeConfig(dir, `${TWO_FLOWS}\nexport: { folder: {dir}/import, mapping: {repo}/config/mappings/status-export.yaml }`);
      const ackFormats = ackFormatsOf(config);
      const targets = exportTargets(config, ackFormats);
      expect(targets.map(({ channel, folder, mode }) => ({ channel, folder, mode }))).toEqual([
        { channel: 'status', folder: `${dir}/import`, mode: 'perEvent' },
        { channel: 'ack:requests', folder: `${dir}/import`, mode: 'perEvent' },
        { channel: 'ack:other', folder: `${dir}/other-import`, mode: 'perEvent' },
      ]);
      expect(targets[1]!.format).toBe(ackFormats.get('ack:requests'));
      // The shared import folder once.
      expect(exportFolders(targets)).toEqual([`${dir}/import`, `${dir}/other-import`]);
    });
  });

  it('has no status target without export:', async () => {
    await withTempDir((dir) => {
      const config = writeConfig(dir, TWO_FLOWS);
      expect(exportTargets(config, ackFormatsOf(config)).map((target) => target.channel)).toEqual(['ack:requests', 'ack:other']);
    });
  });
});
