/**
 * A folder chosen through 上传文件夹, read through the File System Access API
 * (`showDirectoryPicker`) where the browser has it (Chromium), with relative paths as the folder
 * input gives them (`Book1/sub/p01.jpg`).
 *
 * Why not only `<input webkitdirectory>`: Chromium builds that input's FileList in one task before
 * the page hears of the pick, with a synchronous lookup of each file's MIME type in the browser
 * process; a folder of 10,000 photos froze the page for ≈ 2 s (bench/benchmarks/browser-pick.ts).
 * A directory handle is read a piece at a time, each file asked for in a task of its own, so the
 * page keeps answering. The input stays for browsers without the picker (Firefox, Safari) and for
 * pages where it is refused (a cross-origin frame).
 */
import { isSystemFile, type PickedFile } from './pick.ts';
import { filesInTasks } from './drop.ts';

type DirectoryPicker = (options?: { id?: string; mode?: 'read' | 'readwrite' }) => Promise<FileSystemDirectoryHandle>;

/** `window.showDirectoryPicker`, or null where the browser has none. */
export function directoryPicker(): DirectoryPicker | null {
  const picker = (window as unknown as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  return typeof picker === 'function' ? (options) => picker.call(window, options) : null;
}

/** The customer closed the picker without choosing: nothing to do. */
export function isPickerCancel(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

type Entry = FileSystemDirectoryHandle | FileSystemFileHandle;

/** Every file below `root`, depth first, as `root.name/…`; system files and folders are not opened. */
export async function readDirectory(root: FileSystemDirectoryHandle): Promise<PickedFile[]> {
  const paths: string[] = [];
  const handles: FileSystemFileHandle[] = [];
  const walk = async (dir: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
    const children: Entry[] = [];
    for await (const child of (dir as unknown as { values(): AsyncIterable<Entry> }).values()) children.push(child);
    for (const child of children) {
      const relativePath = `${prefix}/${child.name}`;
      if (isSystemFile(relativePath)) continue;
      if (child.kind === 'file') {
        paths.push(relativePath);
        handles.push(child);
      } else await walk(child, relativePath);
    }
  };
  await walk(root, root.name);
  // A handle holds a connection to the browser that the garbage collector closes in its pause,
  // ≈ 12 µs each: 10,000 handles let go at once (once their files were read) paused the page for
  // 150-400 ms a second after the listing. Each is held until its file is sent instead
  // (PickedFile.holds), so that they go a few at a time with the collections of the uploading.
  const files = await filesInTasks(handles, (handle) => handle.getFile());
  return paths.map((relativePath, i) => ({ file: files[i] as File, relativePath, holds: handles[i] }));
}
