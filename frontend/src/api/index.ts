export { createApiClient, DEFAULT_TIMEOUT_MS } from './client';
export type { ApiClient, ApiClientOptions, RequestOptions } from './client';
export { ApiProvider, useApi, useOptionalApi } from './context';
export { ApiError, isAbort, messageOf } from './errors';
export type { TokenSource } from './session-token';
export type * from './types';
