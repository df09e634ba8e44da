import { UsageError } from '../core/errors.js';

/** Why the dev server could not start. Each one is the author's to fix, so it is a UsageError. */
export type DevServerErrorCode = 'PORT_IN_USE' | 'ROOT_NOT_FOUND' | 'INVALID_OPTION' | 'ADDRESS_UNAVAILABLE' | 'FIXTURES_INVALID';

export class DevServerError extends UsageError {
  readonly code: DevServerErrorCode;

  constructor(code: DevServerErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
