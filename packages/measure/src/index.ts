export * from './image.ts';
export * from './check.ts';
