/**
 * Routes of the emulator's API, made from the contract's endpoint tables. A disabled version has
 * no routes, so its paths answer like unknown ones.
 */
import { allEndpoints, matchTemplate, type ApiVersion, type Operation, type ResourceContract } from '../contract/index.js';

export interface Route {
  readonly resource: ResourceContract;
  readonly version: ApiVersion;
  readonly operation: Operation;
  /** The value of the path's `{…}` variable (a uid or parent uid), if the template has one. */
  readonly value?: string;
}

export type RouteResult = { kind: 'found'; route: Route } | { kind: 'method-not-allowed'; allowed: string[] } | { kind: 'not-found' };

export class Router {
  private readonly entries;

  constructor(disabled: readonly ApiVersion[]) {
    this.entries = allEndpoints().filter((e) => e.resource.modelled && !disabled.includes(e.version));
  }

  match(method: string, path: string): RouteResult {
    const allowed: string[] = [];
    for (const entry of this.entries) {
      const m = matchTemplate(entry.endpoint.path, path);
      if (!m) continue;
      if (entry.endpoint.method !== method) {
        allowed.push(entry.endpoint.method);
        continue;
      }
      const route: Route = { resource: entry.resource, version: entry.version, operation: entry.operation, ...(m.variable ? { value: m.variable.value } : {}) };
      return { kind: 'found', route };
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}
