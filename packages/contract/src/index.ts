export * from './messages.ts';
export * from './enums.ts';
export * from './api.ts';
export * from './rules.ts';
export * from './admin.ts';
export * from './admin-production.ts';
export * from './admin-webhooks.ts';
