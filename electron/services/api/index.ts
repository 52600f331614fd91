export * from './apiClient.ts';
export * from './apiError.ts';
export * from './requestBuilder.ts';
