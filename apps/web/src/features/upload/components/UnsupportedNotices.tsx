import { Alert, Typography } from 'antd';
import { useBatch, useUploadState } from '../../batch/index.ts';

const LISTED = 10;

/** Files of a pick of another type, and files inside folders and zips that the parse did not recognise: a warning, not an error of a work. */
export function UnsupportedNotices() {
  const notices = useUploadState((s) => s.unsupported);
  const round = useUploadState((s) => s.unsupportedRound);
  const { clearUnsupportedNotices } = useBatch();
  if (notices.length === 0) return null;
  return (
    <Alert
      key={round}
      type="warning"
      showIcon
      data-testid="unsupported-files"
      title={`以下文件未被识别（共${notices.length}个），不会加入订单：`}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {notices.slice(0, LISTED).map((n) => (
            <li key={`${n.filePath}`}>
              <Typography.Text>{n.fileName}</Typography.Text>
              <Typography.Text type="secondary">{n.itemName !== n.fileName ? `（${n.itemName}）` : ''}：{n.reason}</Typography.Text>
            </li>
          ))}
          {notices.length > LISTED && <li>等{notices.length}个文件</li>}
        </ul>
      }
      closable={{ onClose: clearUnsupportedNotices }}
    />
  );
}
