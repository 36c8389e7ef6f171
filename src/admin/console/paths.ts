/** The console's addresses, built in one place (every id URL-encoded, so `ЗК-000101` or `A/B` is one path segment). */
const enc = encodeURIComponent;

/** `?state=…&before=…` of a files list, leaving out what is not set. */
function filesQuery(o: { state?: string | null | undefined; before?: number | null | undefined }): string {
  const parts = [o.state ? `state=${enc(o.state)}` : '', o.before ? `before=${o.before}` : ''].filter(Boolean);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

export const paths = {
  overview: () => '/',
  attention: () => '/attention',
  events: (before?: number | null) => (before ? `/events?before=${before}` : '/events'),
  audit: () => '/audit',
  order: (orderId: string) => `/orders/${enc(orderId)}`,
  /** Every flow's requests (and the search across them), and every flow's files. */
  allRequests: (q?: string) => `/requests${q ? `?q=${enc(q)}` : ''}`,
  allFiles: (state?: string | null, before?: number | null) => `/files${filesQuery({ state, before })}`,
  search: (flow: string, q?: string) => `/flows/${enc(flow)}/requests${q ? `?q=${enc(q)}` : ''}`,
  request: (flow: string, externalId: string) => `/flows/${enc(flow)}/requests/${enc(externalId)}`,
  files: (flow: string, state?: string | null, before?: number | null) => `/flows/${enc(flow)}/files${filesQuery({ state, before })}`,
  file: (flow: string, fileId: number) => `/flows/${enc(flow)}/files/${fileId}`,
  exchange: (flow: string) => `/flows/${enc(flow)}/exchange`,
  retryRequest: (flow: string, externalId: string) => `/flows/${enc(flow)}/requests/${enc(externalId)}/retry`,
  retryDead: (flow: string) => `/flows/${enc(flow)}/dead/retry`,
  retakeFile: (flow: string, fileId: number) => `/flows/${enc(flow)}/files/${fileId}/retake`,
  resumeFlow: (flow: string) => `/flows/${enc(flow)}/resume`,
  resolveNotice: (flow: string, noticeId: number) => `/flows/${enc(flow)}/notices/${noticeId}/resolve`,
  mapping: (flow?: string, sample?: string | null) => {
    const query = [flow ? `flow=${enc(flow)}` : '', sample ? `sample=${enc(sample)}` : ''].filter(Boolean).join('&');
    return `/mapping${query ? `?${query}` : ''}`;
  },
  mappingPreview: () => '/mapping/preview',
  mappingSuggest: () => '/mapping/suggest',
  mappingSave: () => '/mapping/save',
  mappingSchema: (flow: string) => `/mapping/schema.json?flow=${enc(flow)}`,
  login: (next?: string) => (next && next !== '/' ? `/login?next=${enc(next)}` : '/login'),
  logout: () => '/logout',
  asset: (name: string) => `/assets/${name}`,
};
