/** Monthly and yearly reports: the period, the model and its inputs from the API. Pure. */
export * from './period.ts';
export * from './reportModel.ts';
export * from './reportSource.ts';
export * from './reportCsv.ts';
export * from './consumptionBaseline.ts';
export * from './daylightAvailability.ts';
export * from './reportDataHealth.ts';
