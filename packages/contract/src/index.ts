export * from './messages.ts';
export * from './enums.ts';
export * from './api.ts';
export * from './rules.ts';
export * from './admin.ts';
export * from './triage.ts';
export * from './check-batch.ts';
export * from './bulk-fix.ts';
