/**
 * 添加文件 and a 重新上传 that changes the file's type, in the file detail dialog: the work's file list
 * changes, which the server only learns from a parse.
 *
 * The server keeps a work's file list; sortWorkFiles can reorder or drop files but not add one (and
 * refuses any work holding a PDF). So the file is uploaded next to the work's files, the work's
 * folder (or, for a work of one file, the new file) is parsed again (a new work on the server), that
 * work is brought to the wanted list, the row takes the new work's uuid in place, and the new work is
 * checked against the row's SKU. Bringing the parse to the wanted list:
 * - it already is (the folder holds exactly the wanted files, in that order): nothing to do;
 * - a work holding a PDF, with the same files in another order: kept in the folder's order (a PDF
 *   work is never sorted, so that is the order it had);
 * - a work holding a PDF with other files: refused (sortWorkFiles cannot drop them);
 * - otherwise sortWorkFiles keeps the wanted files in the wanted order (files the customer had
 *   removed stay out).
 * Works from a zip have no folder of their own to write to.
 */
import { MSG } from '@portal/contract/messages';
import type { Batch, WorkRow } from '../batch/index.ts';
import { deleteStoredFile, parseItem } from '../upload/index.ts';
import { sortWorkFiles } from '../photo-sort/index.ts';
import { checkFlowOf, skuChoiceOfRow } from './check-works.ts';
import { openFileDetail } from './dialogs.ts';
import { extensionOf, uploadInto, uploadTargetOf } from './lib/upload-into.ts';

export function canAddFiles(work: Pick<WorkRow, 'filePath' | 'files'>): boolean {
  return uploadTargetOf(work.filePath) !== null && work.files.some((f) => f.filePath.startsWith(`${work.filePath}/`));
}

/** A name not yet used in the work: photo.jpg, photo-2.jpg, photo-3.jpg… */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}

const holdsPdf = (files: readonly { filePath: string }[]) => files.some((f) => extensionOf(f.filePath) === 'pdf');

/** Parses `parsePath` again and puts the new work, holding `wanted` (stored paths, in order), in the row's place. */
async function rebuildWork(page: Batch, work: WorkRow, customerHubId: number, parsePath: string, wanted: readonly string[], patch: Partial<WorkRow> = {}): Promise<void> {
  const parsed = await parseItem(parsePath, customerHubId, () => undefined);
  const fresh = parsed.works[0];
  if (!fresh) throw new Error('文件解析失败');
  let files = fresh.files;
  let pageCount = fresh.pageCount;
  const got = fresh.files.map((f) => f.filePath);
  const sameOrder = got.length === wanted.length && got.every((p, i) => p === wanted[i]);
  if (!sameOrder) {
    if (holdsPdf(fresh.files)) {
      const sameFiles = got.length === wanted.length && wanted.every((p) => got.includes(p));
      if (!sameFiles) throw new Error(MSG.addFileRefused);
    } else {
      const sorted = await sortWorkFiles({ accessPath: fresh.filePath, fileNames: [...wanted], name: work.articleName, acceptFolder: true, workUuid: fresh.uuid });
      files = sorted.message.files;
      pageCount = sorted.message.pageCount;
    }
  }
  const { checkWorks, dropWorkEntries } = checkFlowOf(page);
  page.replaceWork(work.uuid, {
    ...work,
    ...patch,
    uuid: fresh.uuid,
    files,
    pageCount,
    state: 'unmatch',
    addPageNum: null,
    fileArea: null,
    checkResult: null,
  });
  dropWorkEntries([work.uuid]);
  openFileDetail(fresh.uuid);
  const choice = skuChoiceOfRow(work);
  if (choice) await checkWorks([fresh.uuid], choice, customerHubId);
}

/** Adds the file to the work under its name, or beside a file of that name under a free one; answers the name it got. */
export async function addFileToWork(page: Batch, work: WorkRow, file: File, customerHubId: number): Promise<string> {
  if (!canAddFiles(work)) throw new Error('只有文件夹上传的作品可以添加文件');
  const taken = new Set(work.files.map((f) => f.filePath.slice(work.filePath.length + 1)));
  const name = freeName(file.name, taken);
  const storedPath = `${work.filePath}/${name}`;
  await uploadInto(file, storedPath);
  await rebuildWork(page, work, customerHubId, work.filePath, [...work.files.map((f) => f.filePath), storedPath]);
  return name;
}

/** Whether a picked file can replace a stored one in place: the same format (the stored name, and its extension, stay). */
export function sameFormat(fileName: string, storedPath: string): boolean {
  const kind = (ext: string) => (ext === 'jpeg' ? 'jpg' : ext);
  return kind(extensionOf(fileName)) === kind(extensionOf(storedPath));
}

/**
 * 重新上传 of a .png onto a .jpg (or back): the bytes must be stored under their own extension, so the
 * file is stored beside the old one as `<name>.<new extension>` (a free name among the files the page
 * knows there) and takes its place in the work; a work of that one file becomes a work of the new one.
 */
export async function replaceFileInWork(page: Batch, work: WorkRow, oldPath: string, file: File, customerHubId: number): Promise<void> {
  if (!uploadTargetOf(oldPath)) throw new Error('该文件不能重新上传');
  const slash = oldPath.lastIndexOf('/');
  const dir = oldPath.slice(0, slash);
  const oldName = oldPath.slice(slash + 1);
  const dot = oldName.lastIndexOf('.');
  const stem = dot > 0 ? oldName.slice(0, dot) : oldName;
  const taken = new Set<string>();
  for (const row of page.worksStore.getState().rows) {
    for (const f of row.files) if (f.filePath.startsWith(`${dir}/`)) taken.add(f.filePath.slice(dir.length + 1));
  }
  const newName = freeName(`${stem}.${extensionOf(file.name)}`, taken);
  const newPath = `${dir}/${newName}`;
  await uploadInto(file, newPath);
  // A work holding a PDF is never sorted, so the folder must hold just the wanted files: the replaced one goes.
  if (work.filePath !== oldPath && holdsPdf(work.files)) await deleteStoredFile(oldPath, { silent: true }).catch(() => false);
  const wanted = work.files.map((f) => (f.filePath === oldPath ? newPath : f.filePath));
  if (work.filePath === oldPath) await rebuildWork(page, work, customerHubId, newPath, wanted, { filePath: newPath, fileName: newName });
  else await rebuildWork(page, work, customerHubId, work.filePath, wanted);
}
