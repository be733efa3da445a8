/**
 * Errors a user can cause (bad flags, unreadable files). They carry a stable `code`; the CLI prints
 * their message without a stack trace and exits 2. Anything else is a bug and is re-thrown.
 */
export class UsageError extends Error {
  readonly code = 'E_USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function isUsageError(error: unknown): error is UsageError {
  return error instanceof UsageError;
}
