/**
 * 添加文件 of the file detail dialog: a picture added to a work uploaded as a folder.
 *
 * The server keeps a work's file list; sortWorkFiles can reorder or drop files but not add one.
 * So the file is uploaded into the work's folder, the folder is parsed again (a new work on the
 * server, holding every file stored there), that work is trimmed to the old list plus the new file
 * (files the customer had removed stay out), the row takes the new work's uuid in place, and the
 * new work is checked against the row's SKU. Works of a single file or from a zip have no folder
 * of their own to add to.
 */
import { parseItem } from '../upload/parse-item.ts';
import { replaceWork, type WorkRow } from '../works-table/store.ts';
import { sortWorkFiles } from '../photo-sort/api/sort-work-files.ts';
import { checkWorks, dropWorkEntries, skuChoiceOfRow } from './check-works.ts';
import { openFileDetail } from './dialogs.ts';
import { uploadInto, uploadTargetOf } from './lib/upload-into.ts';

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

export async function addFileToWork(work: WorkRow, file: File, customerHubId: number): Promise<void> {
  if (!canAddFiles(work)) throw new Error('只有文件夹上传的作品可以添加文件');
  const taken = new Set(work.files.map((f) => f.filePath.slice(work.filePath.length + 1)));
  const storedPath = `${work.filePath}/${freeName(file.name, taken)}`;
  await uploadInto(file, storedPath);
  const parsed = await parseItem(work.filePath, customerHubId, () => undefined);
  const fresh = parsed.works[0];
  if (!fresh) throw new Error('文件解析失败');
  const sorted = await sortWorkFiles({
    accessPath: fresh.filePath,
    fileNames: [...work.files.map((f) => f.filePath), storedPath],
    name: work.articleName,
    acceptFolder: true,
    workUuid: fresh.uuid,
  });
  replaceWork(work.uuid, {
    ...work,
    uuid: fresh.uuid,
    files: sorted.message.files,
    pageCount: sorted.message.pageCount,
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
