/** The console over plain HTTP (no browser): pages, JSON, headers, and the admin endpoints untouched. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/with-daemon.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { withConsoleDaemon } from './with-console-daemon.js';

const json = { accept: 'application/json' };

describe('console pages', () => {
  it('serves the overview as HTML and as JSON, with a strict CSP, next to /metrics', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      fs.copyFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'), path.join(inbox, 'requests.csv'));
      await waitUntil(() => daemon.sandbox!.requests().length === 3, 'three requests accepted');
      await waitUntil(async () => {
        const data = (await (await fetch(`${url}/`, { headers: json })).json()) as { flows: { counts: Record<string, number> }[] };
        return data.flows[0]!.counts.accepted === 3;
      }, 'the overview counts them');
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const body = await page.text();
      expect(body).toMatch(/^<!DOCTYPE html>/);
      expect(body).toContain('/assets/console.js');
      expect((await fetch(`${url}/assets/console.css`)).status).toBe(200);
      expect((await fetch(`${url}/metrics`)).status).toBe(200);
      const request = await fetch(`${url}/flows/requests/requests/${encodeURIComponent('ЗК-000101')}`, { headers: json });
      expect(request.status).toBe(200);
      const story = (await request.json()) as { submissions: { state: string; timeline: { type: string }[] }[] };
      expect(story.submissions[0]!.state).toBe('accepted');
      expect(story.submissions[0]!.timeline.map((e) => e.type)).toEqual(['recorded', 'attempt', 'outcome', 'acknowledgement']);
    });
  });
});
