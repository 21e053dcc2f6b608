import { Flex, Progress, Typography } from 'antd';
import { useDeferredValue } from 'react';
import { formatBytes, percentOf } from '../../../lib/format.ts';
import { selectIsUploading, selectOverall, selectRetrying, useUploadState } from '../../batch/index.ts';

/** The sum of every upload in progress; hidden when nothing is being sent. */
export function OverallProgress() {
  const overall = useUploadState(selectOverall);
  // Deferred, as the file-check list: it first shows up in the frame that lists a whole pick.
  const busy = useDeferredValue(useUploadState(selectIsUploading));
  const retrying = useUploadState(selectRetrying);
  if (!busy) return null;
  const { filesDone, filesFailed, filesTotal, bytesDone, bytesTotal } = overall;
  // One line, in the file-check column of a fixed height (UploadArea): the more of it is left to the entries.
  return (
    <Flex align="center" gap={8} role="status" aria-label="上传进度" data-testid="upload-overall">
      <Typography.Text style={{ whiteSpace: 'nowrap' }}>
        正在上传 {filesDone}/{filesTotal} 个文件
        {filesFailed > 0 && <Typography.Text type="danger">，{filesFailed} 个失败</Typography.Text>}
        {retrying && (
          <Typography.Text type="warning" data-testid="upload-retrying">
            ，连接中断，正在自动重试…
          </Typography.Text>
        )}
      </Typography.Text>
      <Progress percent={percentOf(bytesDone, bytesTotal)} size="small" status="active" style={{ flex: 1, margin: 0 }} />
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
        {formatBytes(bytesDone)} / {formatBytes(bytesTotal)}
      </Typography.Text>
    </Flex>
  );
}
