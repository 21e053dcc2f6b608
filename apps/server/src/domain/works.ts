import { MSG } from '@portal/contract';

/**
 * Parsing rules of ../shared/spec/decisions.md §4: how uploaded items become works. Pure: it sees paths and the metadata
 * read at upload, never the disk.
 */

export type ParsedFile = {
  /** Path relative to the hub's root. */
  path: string;
  kind: 'image' | 'pdf' | 'other';
  /** image: pixels and dpi; pdf: mm of page 1 and the page count. */
  width: number;
  height: number;
  dpi: number | null;
  pages: number;
};

export type WorkFileOut = { fileName: string; filePath: string; component: string | null; width: number; height: number; dpi: number | null; pages: number };
export type WorkOut = { articleName: string; filePath: string; fileName: string; files: WorkFileOut[]; pageCount: number };
export type Unsupported = { fileName: string; filePath: string; reason: string };

const IGNORED_NAMES = new Set(['.ds_store', 'thumbs.db', 'desktop.ini']);
export const UNSUPPORTED_REASON = '不支持的文件类型，只能上传.zip,.pdf,.png,.jpg';

const collator = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });
/** Natural order: p2 before p10; folders compared segment by segment. */
export function naturalCompare(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const c = collator.compare(sa[i]!, sb[i]!);
    if (c !== 0) return c;
  }
  return sa.length - sb.length;
}

/** System files and dot-files are skipped without a word. */
export function isIgnored(relPath: string): boolean {
  return relPath.split('/').some((seg) => seg === '__MACOSX' || seg.startsWith('.') || IGNORED_NAMES.has(seg.toLowerCase()));
}

export function kindOf(name: string): 'image' | 'pdf' | 'zip' | 'other' {
  const ext = /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase();
  if (ext === 'jpg' || ext === 'jpeg' || ext === 'png') return 'image';
  if (ext === 'pdf') return 'pdf';
  if (ext === 'zip') return 'zip';
  return 'other';
}

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
export const stripExt = (name: string) => name.replace(/\.[^./]+$/, '');

function toWorkFile(f: ParsedFile, component: string | null): WorkFileOut {
  return { fileName: baseName(f.path), filePath: f.path, component, width: f.width, height: f.height, dpi: f.dpi, pages: f.pages };
}

const pagesOf = (files: WorkFileOut[]) => files.reduce((n, f) => n + f.pages, 0);

/** A single image or PDF is one work named after the file without its extension. */
export function workOfFile(f: ParsedFile): WorkOut {
  const file = toWorkFile(f, null);
  return { articleName: stripExt(file.fileName), filePath: f.path, fileName: file.fileName, files: [file], pageCount: file.pages };
}

/**
 * A folder is one work named after it, holding every image and PDF below it in natural order. A file
 * whose folder (directly below the work) is named like a component is assigned to that component.
 */
export function workOfFolder(folderPath: string, files: ParsedFile[], componentNames: ReadonlySet<string>, name = baseName(folderPath)): WorkOut | null {
  const inside = files.filter((f) => f.path.startsWith(`${folderPath}/`) && f.kind !== 'other' && !isIgnored(f.path.slice(folderPath.length + 1)));
  if (inside.length === 0) return null;
  inside.sort((a, b) => naturalCompare(a.path, b.path));
  const out = inside.map((f) => {
    const rel = f.path.slice(folderPath.length + 1).split('/');
    const sub = rel.length > 1 ? rel[0]! : null;
    return toWorkFile(f, sub && componentNames.has(sub) ? sub : null);
  });
  return { articleName: name, filePath: folderPath, fileName: name, files: out, pageCount: pagesOf(out) };
}

/**
 * Files below a root that are neither ignored nor printable, so the customer hears of them. A zip
 * among them is not opened (`within` says whether the root is an extracted zip or a folder).
 */
export function unsupportedBelow(rootPath: string, files: ParsedFile[], within: 'zip' | 'folder' = 'folder'): Unsupported[] {
  return files
    .filter((f) => f.kind === 'other' && (f.path === rootPath || f.path.startsWith(`${rootPath}/`)) && !isIgnored(f.path.slice(rootPath.length + 1)))
    .sort((a, b) => naturalCompare(a.path, b.path))
    .map((f) => ({
      fileName: baseName(f.path), filePath: f.path,
      reason: kindOf(f.path) !== 'zip' ? UNSUPPORTED_REASON : within === 'zip' ? MSG.zipInZip : MSG.zipInFolder,
    }));
}

/**
 * The works of an extracted zip (rootPath is where it was extracted, zipName its name without .zip):
 * - the root holds exactly one folder and no printable file: that folder is the work;
 * - the root holds several folders: each folder is a work, and each printable file at the root one more;
 * - otherwise the zip is one work named after it.
 */
export function worksOfZip(rootPath: string, zipName: string, files: ParsedFile[], componentNames: ReadonlySet<string>): WorkOut[] {
  const visible = files.filter((f) => f.path.startsWith(`${rootPath}/`) && !isIgnored(f.path.slice(rootPath.length + 1)));
  const rootFolders = new Set<string>();
  const rootFiles: ParsedFile[] = [];
  for (const f of visible) {
    const rel = f.path.slice(rootPath.length + 1).split('/');
    if (rel.length > 1) rootFolders.add(rel[0]!);
    else if (f.kind !== 'other') rootFiles.push(f);
  }
  const folders = [...rootFolders].sort(naturalCompare);
  const foldersWithWork = folders.filter((d) => visible.some((f) => f.kind !== 'other' && f.path.startsWith(`${rootPath}/${d}/`)));
  if (foldersWithWork.length === 1 && rootFiles.length === 0) {
    const w = workOfFolder(`${rootPath}/${foldersWithWork[0]}`, visible, componentNames);
    return w ? [w] : [];
  }
  if (foldersWithWork.length > 1) {
    const works = foldersWithWork.map((d) => workOfFolder(`${rootPath}/${d}`, visible, componentNames)).filter((w): w is WorkOut => w !== null);
    return [...works, ...rootFiles.sort((a, b) => naturalCompare(a.path, b.path)).map(workOfFile)];
  }
  const w = workOfFolder(rootPath, visible, componentNames, zipName);
  return w ? [w] : [];
}
