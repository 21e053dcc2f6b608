/** Saves bytes made or fetched in the page as a download named `fileName` (an object URL and a link clicked). */
export function saveFile(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started by then; the object URL can go.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
