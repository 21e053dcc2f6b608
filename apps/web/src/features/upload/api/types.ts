/**
 * Answer shapes of the upload and parse calls (decisions §3, §4), as apps/server/src/routes
 * declares them. They belong in @portal/contract once it exports them; until then they are
 * written once, here, and the other features import them from this file.
 */
import type { WorkState } from '@portal/contract/enums';

/** What the server read from a file at upload: pixels and DPI of an image, pages and mm of a PDF. */
export type UploadedInfo = { width: number; height: number; dpi: number } | { pages: number; width: number; height: number } | Record<string, never>;

export interface ChunkDone {
  status: 300;
  filePath: string;
  relativeUrl: string;
  accessUrl: string;
  info: UploadedInfo;
}

export type ChunkAnswer = { state: 200; message: { status: 200 } | ChunkDone };

export interface WorkFile {
  fileName: string;
  filePath: string;
  component: string | null;
  width: number;
  height: number;
  dpi: number | null;
  pages: number;
}

export interface Work {
  uuid: string;
  articleName: string;
  filePath: string;
  fileName: string;
  files: WorkFile[];
  pageCount: number;
  quantity: number;
  state: WorkState;
}

export interface UnsupportedFile {
  fileName: string;
  filePath: string;
  reason: string;
}

export interface ParseResult {
  works: Work[];
  unsupported: UnsupportedFile[];
}

export type ParseAnswer = { state: 200; message: ParseResult } | { state: 100; message: { taskId: string } } | { state: number; message: unknown };

export interface LongTask {
  status: 'running' | 'finished' | 'failed';
  progress: { done: number; total: number };
  jsonContent: ParseResult | null;
  error: string | null;
}
