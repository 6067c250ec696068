/** The one error type every refusal travels in; the error middleware shapes it as {error:{code,message}}. */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const unauthorized = (message = 'A valid API key (Authorization: Bearer <key>) or a signed-in session is required.') =>
  new ServiceError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ServiceError(403, 'forbidden', message);
export const notFound = (message: string) => new ServiceError(404, 'not_found', message);
export const badRequest = (code: string, message: string) => new ServiceError(422, code, message);
