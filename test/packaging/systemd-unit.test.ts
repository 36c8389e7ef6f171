/**
 * The systemd unit: what operators rely on from it without reading it (the journal under the
 * service's own name with each line's priority, reload on SIGHUP, a stop bound longer than the
 * daemon's own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serviceKeys } from '../../src/config/service-schema.js';

const UNIT = fs.readFileSync(path.join(import.meta.dirname, '../../systemd/procurement-connector.service'), 'utf8');

/** The [Service] section's settings, `key → values` (a key may be given more than once). */
function serviceSettings(): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of UNIT.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      section = line;
      continue;
    }
    if (section !== '[Service]') continue;
    const at = line.indexOf('=');
    const key = line.slice(0, at);
    settings.set(key, [...(settings.get(key) ?? []), line.slice(at + 1)]);
  }
  return settings;
}

describe('systemd/procurement-connector.service', () => {
  const settings = serviceSettings();

  it("logs to the journal under the service's name, each line's <N> prefix read as its priority", () => {
    expect(settings.get('SyslogIdentifier')).toEqual(['procurement-connector']);
    expect(settings.get('SyslogLevelPrefix')).toEqual(['yes']);
    // The prefix goes only to the journal: stdout must stay the journal's stream.
    expect(settings.get('StandardOutput') ?? ['journal']).toEqual(['journal']);
  });

  it('reloads on SIGHUP and stops on SIGTERM, waiting longer than the daemon bounds its own stop', () => {
    expect(settings.get('ExecReload')).toEqual(['/bin/kill -HUP $MAINPID']);
    expect(settings.get('KillSignal')).toEqual(['SIGTERM']);
    const daemonBoundS = serviceKeys.shutdownTimeoutMs.parse(undefined) / 1000 + 3;
    expect(Number(settings.get('TimeoutStopSec')?.[0])).toBeGreaterThan(daemonBoundS);
  });
});
