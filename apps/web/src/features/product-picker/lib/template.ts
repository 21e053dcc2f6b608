/**
 * Template download (../shared/spec/product-spec.md §7): the component's signed templateRelativeUrl is fetched as
 * it is (the signature stands in for the token) and saved under the template's file name.
 */
export async function downloadTemplate(url: string, fileName: string): Promise<void> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`template ${res.status}`);
  const blob = await res.blob();
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

export const templateFailureText = (fileName: string) =>
  `模板文件「${fileName}」下载失败，请检查该文件是否存在，以及服务器是否已正确配置。`;
