/**
 * The emulator's typed errors and the google.rpc.Status bodies they become (v2 §7, AIP-193).
 * Handlers throw ApiError; the server core turns it into a response. Anything else is a bug.
 */
import { AUTH, ERROR_MODEL, GRPC_CODES, type GrpcCodeName } from '../contract/index.js';

export type ErrorDetail = Record<string, unknown> & { '@type': string };

export interface StatusBody {
  code: number;
  message: string;
  details: ErrorDetail[];
}

const PREFIX: Partial<Record<GrpcCodeName, string>> = {
  ...ERROR_MODEL.messagePrefix,
  NOT_FOUND: 'Not found',
  UNAUTHENTICATED: 'Unauthenticated',
  PERMISSION_DENIED: 'Permission denied',
  UNIMPLEMENTED: 'Unimplemented',
  UNAVAILABLE: 'Unavailable',
  RESOURCE_EXHAUSTED: 'Resource exhausted',
};

/** What an error's HTTP reply carries besides the body: a status other than its code's, headers. */
export interface HttpParts {
  status?: number;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly extraDetails: ErrorDetail[];
  constructor(
    readonly grpc: GrpcCodeName,
    readonly text: string,
    details: ErrorDetail[] = [],
    private readonly http: HttpParts = {},
  ) {
    super(`${PREFIX[grpc] ?? grpc}: ${text}`);
    this.name = 'ApiError';
    this.extraDetails = details;
  }

  /** The status grpc-gateway maps the code to, unless the error says otherwise. */
  get httpStatus(): number {
    return this.http.status ?? GRPC_CODES[this.grpc].http;
  }

  get httpHeaders(): Record<string, string> {
    return this.http.headers ?? {};
  }

  body(errorDomain: string): StatusBody {
    const info: ErrorDetail = { '@type': ERROR_MODEL.detailTypes.ErrorInfo, reason: this.grpc, domain: errorDomain };
    return { code: GRPC_CODES[this.grpc].code, message: this.message, details: [info, ...this.extraDetails] };
  }
}

export interface FieldViolation {
  field: string;
  description: string;
}

export function invalidArgument(violations: FieldViolation[]): ApiError {
  const first = violations[0] ?? { field: 'request', description: 'invalid request' };
  return new ApiError('INVALID_ARGUMENT', `${first.field}: ${first.description}`, [
    { '@type': ERROR_MODEL.detailTypes.BadRequest, fieldViolations: violations },
  ]);
}

export function invalidField(field: string, description: string): ApiError {
  return invalidArgument([{ field, description }]);
}

export function notFound(what: string): ApiError {
  return new ApiError('NOT_FOUND', what);
}

export function failedPrecondition(text: string, type: string, description: string): ApiError {
  return new ApiError('FAILED_PRECONDITION', text, [
    { '@type': ERROR_MODEL.detailTypes.PreconditionFailure, violations: [{ type, description }] },
  ]);
}

export function unauthenticated(text: string): ApiError {
  return new ApiError('UNAUTHENTICATED', text, [], { headers: { 'www-authenticate': AUTH.scheme } });
}

function notOffered(method: string, path: string, offered: readonly string[]): string {
  return `${method} is not offered on ${path} (offered: ${offered.join(', ')})`;
}

/** A method the API does not offer on a path: code 12 and 501, as grpc-gateway answers an unbound method. */
export function methodNotOffered(method: string, path: string, offered: readonly string[]): ApiError {
  return new ApiError('UNIMPLEMENTED', notOffered(method, path, offered));
}

/** The same for the emulator's own endpoints, which are plain HTTP: 405 with an Allow header, the API's body. */
export function methodNotAllowed(method: string, path: string, offered: readonly string[]): ApiError {
  return new ApiError('UNIMPLEMENTED', notOffered(method, path, offered), [], { status: 405, headers: { allow: offered.join(', ') } });
}
