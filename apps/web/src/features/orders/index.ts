/**
 * The public entry of features/orders: Placing the order (/payment1) and the order list (/orders).
 * Other features and app/ import only this.
 */
export { usePlaceBatchOrder } from './api/place-batch.ts';
export type { PlacedBatch } from './api/place-batch.ts';
export { OrderConfirm, OrderPlaced } from './components/OrderConfirm.tsx';
export { OrdersTable } from './components/OrdersTable.tsx';
export { batchBodyOf } from './lib/bodies.ts';
