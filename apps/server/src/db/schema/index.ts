export * from './catalogue.ts';
export * from './hubs.ts';
export * from './regions.ts';
export * from './files.ts';
export * from './tasks.ts';
export * from './orders.ts';
export * from './webhooks.ts';
export * from './drafts.ts';
