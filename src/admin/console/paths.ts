/** The console's addresses, built in one place (every id URL-encoded, so `ЗК-000101` or `A/B` is one path segment). */
const enc = encodeURIComponent;

export const paths = {
  overview: () => '/',
  attention: () => '/attention',
  events: (before?: number | null) => (before ? `/events?before=${before}` : '/events'),
  audit: () => '/audit',
  order: (orderId: string) => `/orders/${enc(orderId)}`,
  search: (flow: string, q?: string) => `/flows/${enc(flow)}/requests${q ? `?q=${enc(q)}` : ''}`,
  request: (flow: string, externalId: string) => `/flows/${enc(flow)}/requests/${enc(externalId)}`,
  files: (flow: string, state?: string | null, before?: number | null) => {
    const query = [state ? `state=${enc(state)}` : '', before ? `before=${before}` : ''].filter(Boolean).join('&');
    return `/flows/${enc(flow)}/files${query ? `?${query}` : ''}`;
  },
  file: (flow: string, fileId: number) => `/flows/${enc(flow)}/files/${fileId}`,
  exchange: (flow: string) => `/flows/${enc(flow)}/exchange`,
  retryRequest: (flow: string, externalId: string) => `/flows/${enc(flow)}/requests/${enc(externalId)}/retry`,
  retryDead: (flow: string) => `/flows/${enc(flow)}/dead/retry`,
  retakeFile: (flow: string, fileId: number) => `/flows/${enc(flow)}/files/${fileId}/retake`,
  resumeFlow: (flow: string) => `/flows/${enc(flow)}/resume`,
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
