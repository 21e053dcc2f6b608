export * from './image.ts';
