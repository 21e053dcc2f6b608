/**
 * The file check's rules live in @portal/measure (check.ts) since the browser's preflight applies
 * them too (a provisional verdict while the bytes upload); the server's check is the authority.
 */
export * from '@portal/measure';
