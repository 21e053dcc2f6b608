/**
 * The public entry of features/admin-webhooks: the console's webhook page (endpoint, test, delivery log,
 * resend). The console mounts it through lazy.ts; nothing else of this feature is public.
 */
export type { DeliveriesQuery } from './api/deliveries.ts';
