import { z } from 'zod';

/**
 * The operator console's calls, all under /api/admin (operators only: a customer's token gets 403).
 * ../../docs/api.md lists them.
 */

const zId = z.coerce.number().int().positive();

// --- hubs
export const AdminHub = z.object({
  id: z.number().int(),
  name: z.string(),
  batchAddressParsing: z.boolean(),
  createdAt: z.string(),
  logins: z.number().int(),
  orders: z.number().int(),
});
export type AdminHub = z.infer<typeof AdminHub>;
