import { z } from 'zod';

export const WorkState = z.enum(['unmatch', 'match', 'abnormal', 'dpiAbnormal']);
export type WorkState = z.infer<typeof WorkState>;

export const CheckEntryStatus = z.enum(['start', 'success', 'error', 'dpiAbnormal', 'failure']);
export type CheckEntryStatus = z.infer<typeof CheckEntryStatus>;

export const TaskStatus = z.enum(['running', 'finished', 'failed']);
export type TaskStatus = z.infer<typeof TaskStatus>;

export const DeliveryMethod = z.enum(['Unified', 'Partial']);
export type DeliveryMethod = z.infer<typeof DeliveryMethod>;

export const Toning = z.enum(['Manual', 'None']);
export type Toning = z.infer<typeof Toning>;

export const ErrorType = z.enum(['mm', 'percent']);
export type ErrorType = z.infer<typeof ErrorType>;

/** Business constants of ../shared/spec/product-spec.md §9. */
export const LIMITS = {
  chunkSize: 2048000,
  chunkRetries: 3,
  maxPathLength: 255,
  acceptedExtensions: ['png', 'jpg', 'jpeg', 'zip', 'pdf'] as const,
  taskPollMs: 3000,
  pickerPageSizes: [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const,
  cardPickerDefaultSize: 20,
  tablePickerDefaultSize: 10,
  mmPerInch: 25.4,
  /** An order line's copies at most (a draft row holds as many). */
  maxOrderQuantity: 10_000_000,
  /** An order's and a batch's amount at most, in fen: the database's numeric(14, 2). */
  maxAmountFen: 99_999_999_999_999,
} as const;

export { ORDER_STATUSES, ORDER_STATUS_TEXT, TRACKING_LIMITS, type OrderStatus } from './order-status.ts';
