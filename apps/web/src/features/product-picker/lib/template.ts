import { saveFile } from '../../../lib/save-file.ts';

/**
 * Template download (../shared/spec/product-spec.md §7): the component's signed templateRelativeUrl is fetched as
 * it is (the signature stands in for the token) and saved under the template's file name.
 */
export async function downloadTemplate(url: string, fileName: string): Promise<void> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`template ${res.status}`);
  saveFile(await res.blob(), fileName);
}

export const templateFailureText = (fileName: string) =>
  `模板文件「${fileName}」下载失败，请检查该文件是否存在，以及服务器是否已正确配置。`;
