import { CloseOutlined } from '@ant-design/icons';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type ScreenReaderInstructions,
} from '@dnd-kit/core';
import { arrayMove, rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { MSG } from '@portal/contract/messages';
import { App, Button, Empty, Flex, Modal, Spin, Typography, theme } from 'antd';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import type { WorkRow } from '../../batch/index.ts';
import { pathOfPreview, usePreviewImages } from '../../works-table/index.ts';
import { sortWorkFiles, type SortWorkFilesAnswer } from '../api/sort-work-files.ts';
import { isPdfWork } from '../lib/pdf.ts';

/** ../shared/spec/product-spec.md §9: photo sort animation. */
const ANIMATION_MS = 200;
const TILE = 132;

interface Photo {
  /** The stored path: what sortWorkFiles takes. */
  filePath: string;
  fileName: string;
  url: string | undefined;
}


/** What a screen reader hears while a photo is moved with the keyboard: dnd-kit's default is English. */
const INSTRUCTIONS: ScreenReaderInstructions = {
  draggable: '按空格键拿起图片，用方向键移动，再按空格键放下；按 Esc 键取消。',
};

/**
 * The announcements of a drag, by the photo's file name and place: an item's id is its stored
 * path, which dnd-kit would read out (upload/<folderId>/…).
 */
function announcementsFor(order: readonly string[], nameOf: (path: string) => string): Announcements {
  const place = (id: string | number) => `第${order.indexOf(String(id)) + 1}张`;
  return {
    onDragStart: ({ active }) => `已拿起图片 ${nameOf(String(active.id))}，当前为${place(active.id)}，共${order.length}张。`,
    onDragOver: ({ active, over }) =>
      over ? `图片 ${nameOf(String(active.id))} 移到${place(over.id)}的位置。` : `图片 ${nameOf(String(active.id))} 不在可放下的位置。`,
    onDragEnd: ({ active, over }) =>
      over ? `图片 ${nameOf(String(active.id))} 已放在${place(over.id)}。` : `图片 ${nameOf(String(active.id))} 已放下。`,
    onDragCancel: ({ active }) => `已取消拖动，图片 ${nameOf(String(active.id))} 回到原位。`,
  };
}

function SortableTile({ photo, index, onDelete }: { photo: Photo; index: number; onDelete: (path: string) => void }) {
  const { token } = theme.useToken();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: photo.filePath,
    transition: { duration: ANIMATION_MS, easing: 'ease' },
    attributes: { roleDescription: '可拖动排序的图片' },
  });
  return (
    <div
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      role="listitem"
      aria-label={photo.fileName}
      data-testid="sort-tile"
      style={{
        position: 'relative',
        width: TILE,
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
        zIndex: isDragging ? 2 : undefined,
        cursor: isDragging ? 'grabbing' : 'grab',
        touchAction: 'none',
        userSelect: 'none',
      }}
    >
      <div
        style={{
          height: TILE,
          border: `1px solid ${isDragging ? token.colorPrimary : token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
          background: token.colorFillQuaternary,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
          boxShadow: isDragging ? token.boxShadowSecondary : undefined,
        }}
      >
        {photo.url ? (
          <img src={photo.url} alt={photo.fileName} draggable={false} style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
        ) : (
          <Typography.Text type="secondary">无预览</Typography.Text>
        )}
      </div>
      <span
        style={{
          position: 'absolute',
          top: 4,
          left: 4,
          minWidth: 20,
          height: 20,
          padding: '0 6px',
          borderRadius: 10,
          background: 'rgba(0,0,0,.55)',
          color: '#fff',
          fontSize: 12,
          lineHeight: '20px',
          textAlign: 'center',
        }}
      >
        {index + 1}
      </span>
      <Button
        size="small"
        shape="circle"
        danger
        icon={<CloseOutlined />}
        aria-label={`删除 ${photo.fileName}`}
        title="删除"
        // The button must not start a drag.
        onPointerDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.stopPropagation()}
        onClick={() => onDelete(photo.filePath)}
        style={{ position: 'absolute', top: 4, right: 4 }}
      />
      <Typography.Text ellipsis title={photo.fileName} style={{ display: 'block', fontSize: 12, marginTop: 4, textAlign: 'center' }}>
        {photo.fileName}
      </Typography.Text>
    </div>
  );
}

export interface PhotoSortDialogProps {
  /** The work to sort; the dialog is closed when undefined. */
  work: WorkRow | undefined;
  onClose: () => void;
  /** The server kept the new order (and left out the deleted images). */
  onSaved: (answer: SortWorkFilesAnswer) => void;
}

/**
 * 排序: the work's photos in order; drag to reorder, delete an image; 保存 (only with more than one
 * image) sends the order to POST /api/files/sortWorkFiles. PDFs cannot be sorted.
 */
export function PhotoSortDialog({ work, onClose, onSaved }: PhotoSortDialogProps) {
  const { message } = App.useApp();
  const previews = usePreviewImages(work?.filePath);
  const [order, setOrder] = useState<string[]>(() => work?.files.map((f) => f.filePath) ?? []);
  const [shownUuid, setShownUuid] = useState(work?.uuid);
  const [saving, setSaving] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  if (shownUuid !== work?.uuid) {
    // Another work starts over; edits of this one stay while it is shown.
    setShownUuid(work?.uuid);
    setOrder(work?.files.map((f) => f.filePath) ?? []);
  }

  const photos = useMemo(() => {
    const urls = new Map<string, string>();
    for (const img of previews.data ?? []) {
      const path = pathOfPreview(img.relativeUrl || img.url);
      if (path) urls.set(path, img.url);
    }
    const byPath = new Map((work?.files ?? []).map((f) => [f.filePath, f]));
    return order.map((p): Photo => ({ filePath: p, fileName: byPath.get(p)?.fileName ?? p.slice(p.lastIndexOf('/') + 1), url: urls.get(p) }));
  }, [order, previews.data, work?.files]);

  const accessibility = useMemo(() => {
    const names = new Map(photos.map((p) => [p.filePath, p.fileName]));
    return { announcements: announcementsFor(order, (path) => names.get(path) ?? '图片'), screenReaderInstructions: INSTRUCTIONS };
  }, [order, photos]);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setOrder((o) => arrayMove(o, o.indexOf(String(active.id)), o.indexOf(String(over.id))));
  };

  const save = async () => {
    if (!work) return;
    setSaving(true);
    try {
      const answer = await sortWorkFiles({ accessPath: work.filePath, fileNames: order, name: work.articleName, acceptFolder: true, workUuid: work.uuid });
      if (answer.state !== 200) throw new Error('not sorted');
      void message.success('排序已保存');
      onSaved(answer);
    } catch (error) {
      // The server's message (PDF文件不支持排序操作, a file no longer in the work…); 5xx were toasted already.
      if (!(error as { reported?: boolean }).reported) void message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={work !== undefined}
      title={work ? `排序：${work.articleName}` : '排序'}
      width={880}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      footer={
        <Flex justify="space-between" align="center">
          <Typography.Text type="secondary">拖动图片调整顺序，共{order.length}张</Typography.Text>
          <Flex gap={8}>
            <Button onClick={onClose}>取消</Button>
            {order.length > 1 && (
              <Button type="primary" loading={saving} onClick={() => void save()}>
                保存
              </Button>
            )}
          </Flex>
        </Flex>
      }
    >
      {work && isPdfWork(work) ? (
        <Empty description={MSG.pdfCannotSort} />
      ) : previews.isPending ? (
        <Spin style={{ display: 'block', padding: 64 }} />
      ) : order.length === 0 ? (
        <Empty description="没有图片" />
      ) : (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={accessibility}>
          <SortableContext items={order} strategy={rectSortingStrategy}>
            <div
              role="list"
              aria-label="图片顺序"
              style={{ display: 'flex', flexWrap: 'wrap', gap: 16, maxHeight: '62vh', overflowY: 'auto', padding: 4 }}
            >
              {photos.map((photo, i) => (
                <SortableTile key={photo.filePath} photo={photo} index={i} onDelete={(p) => setOrder((o) => o.filter((x) => x !== p))} />
              ))}
            </div>
          </SortableContext>
        </DndContext>
      )}
    </Modal>
  );
}
