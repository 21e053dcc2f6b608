export * from './messages.ts';
export * from './enums.ts';
export * from './api.ts';
export * from './rules.ts';
export * from './batch-draft.ts';
