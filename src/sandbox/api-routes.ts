/** Matching the two API paths and telling which token role each one needs. */
import { API_PREFIX } from '../platform/contract.js';
import type { FaultOperation } from './faults.js';

export type ApiRoute = { operation: 'create'; token: string; role: 'buyer' } | { operation: 'confirm'; token: string; role: 'supplier'; orderId: string };

const CREATE = new RegExp(`^${API_PREFIX}/([^/]+)/requests$`);
const CONFIRM = new RegExp(`^${API_PREFIX}/([^/]+)/supplier/orders/([^/]+)/confirm$`);

/** The route of a path, or null when it is not one of the API operations. */
export function matchApiRoute(pathname: string): ApiRoute | null {
  try {
    const create = CREATE.exec(pathname);
    if (create) return { operation: 'create', token: decodeURIComponent(create[1] ?? ''), role: 'buyer' };
    const confirm = CONFIRM.exec(pathname);
    if (confirm) {
      return { operation: 'confirm', token: decodeURIComponent(confirm[1] ?? ''), role: 'supplier', orderId: decodeURIComponent(confirm[2] ?? '') };
    }
  } catch {
    return null; // a malformed %-escape is simply not a path we serve
  }
  return null;
}

export function faultOperationOf(route: ApiRoute): FaultOperation {
  return route.operation;
}

/** The path as recorded and logged: the token segment reads `<token>`. */
export function maskTokenInPath(pathname: string): string {
  return pathname.replace(/(\/api\/v1\/)[^/?#]+/, '$1<token>');
}
