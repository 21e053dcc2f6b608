import { Button, Empty, Flex, Image, Modal, Result, Spin, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { ELLIPSIS } from '../../../lib/styles.ts';
import { previewsInWorkOrder, usePreviewImages } from '../api/preview-images.ts';
import type { WorkRow } from '../../batch/index.ts';

const THUMB = 150;
/**
 * The body's height whatever it shows (loading, thumbnails, an error): the dialog and its 关闭
 * button stay where they are while the images arrive, so a click meant for 关闭 never lands on a
 * thumbnail that moved under it.
 */
const BODY_HEIGHT = '60vh';

export interface PreviewDialogProps {
  /** The work to preview; the dialog is closed when undefined. */
  work: WorkRow | undefined;
  onClose: () => void;
}

/** 预览: every image and PDF page of a work, in the work's order (after a sort: the new one), as the server renders them. */
export function PreviewDialog({ work, onClose }: PreviewDialogProps) {
  const { token } = theme.useToken();
  const images = usePreviewImages(work?.filePath);
  const files = work?.files;
  const shown = useMemo(() => (images.data ? previewsInWorkOrder(images.data, files ?? []) : []), [images.data, files]);

  let body;
  if (images.isPending) {
    body = (
      <Flex vertical align="center" justify="center" gap={12} style={{ height: '100%' }}>
        <Spin />
        <Typography.Text type="secondary">正在加载预览图…</Typography.Text>
      </Flex>
    );
  } else if (images.isError) {
    body = <Result status="warning" title="预览图加载失败" subTitle={errorMessage(images.error)} />;
  } else if (shown.length === 0) {
    body = <Empty description="暂无预览图" style={{ padding: '48px 0' }} />;
  } else {
    body = (
      <Image.PreviewGroup>
        <div
          data-testid="preview-images"
          style={{
            display: 'grid',
            gridTemplateColumns: `repeat(auto-fill, minmax(${THUMB}px, 1fr))`,
            gap: 12,
            paddingRight: 4,
          }}
        >
          {shown.map((img) => (
            <figure key={img.relativeUrl || img.url} style={{ margin: 0, minWidth: 0 }}>
              <div
                style={{
                  height: THUMB,
                  background: token.colorFillQuaternary,
                  border: `1px solid ${token.colorBorderSecondary}`,
                  borderRadius: token.borderRadius,
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  overflow: 'hidden',
                }}
              >
                <Image
                  src={img.url}
                  alt={img.name}
                  loading="lazy"
                  height={THUMB - 8}
                  style={{ objectFit: 'contain', maxWidth: '100%' }}
                />
              </div>
              <Typography.Text
                type="secondary"
                ellipsis
                title={img.name}
                style={{ display: 'block', fontSize: 12, marginTop: 4, textAlign: 'center' }}
              >
                {img.name}
              </Typography.Text>
            </figure>
          ))}
        </div>
      </Image.PreviewGroup>
    );
  }

  return (
    <Modal
      open={work !== undefined}
      // One line clear of the close button, the whole name on hover (a long name ran under ×).
      title={<div style={{ ...ELLIPSIS, paddingInlineEnd: 32 }} title={work?.articleName}>{work ? `预览：${work.articleName}` : '预览'}</div>}
      onCancel={onClose}
      width={960}
      destroyOnHidden
      footer={<Button onClick={onClose}>关闭</Button>}
    >
      {/* The count's line is kept while loading too (a space), so nothing below it moves. */}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {shown.length > 0 ? `共${shown.length}张` : '\u00a0'}
      </Typography.Paragraph>
      <div style={{ height: BODY_HEIGHT, overflowY: 'auto' }}>{body}</div>
    </Modal>
  );
}
