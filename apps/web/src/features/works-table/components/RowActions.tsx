import { MSG } from '@portal/contract/messages';
import { App, Button, Flex, Popconfirm } from 'antd';
import { memo, useState } from 'react';
import { deleteStoredFile } from '../../upload/index.ts';
import { rowByUuid, useBatch } from '../../batch/index.ts';
import { useControlsReady } from './cells.tsx';

export interface RowActionsProps {
  uuid: string;
  onPreview: (uuid: string) => void;
  /** 重选产品; the button is disabled without it. */
  onReselect?: (uuid: string) => void;
}

/**
 * 重选产品, 预览, 删除 (the stored file too; 确定删除当前文件？ first). The buttons come just after
 * the row, a lookalike until then (useControlsReady); the Popconfirm is mounted only once 删除 is
 * clicked: every row of a scrolled screenful would otherwise mount a popup trigger.
 */
/** What 删除 of a row takes with it: a folder work's files go with it (a 150-file album was asked about as one file: LAN re-walk). */
function deleteScope(row: { articleName: string; files: readonly unknown[] } | undefined): string | undefined {
  if (!row) return undefined;
  return row.files.length > 1 ? `作品「${row.articleName}」的${row.files.length}个文件将一并删除` : `作品「${row.articleName}」将从订单列表中删除`;
}

export const RowActions = memo(function RowActions({ uuid, onPreview, onReselect }: RowActionsProps) {
  const { message } = App.useApp();
  const { removeWorks, worksStore } = useBatch();
  const [deleting, setDeleting] = useState(false);
  const [asking, setAsking] = useState(false);
  const ready = useControlsReady();

  const onDelete = async () => {
    const row = rowByUuid(worksStore.getState(), uuid);
    if (!row) return;
    setDeleting(true);
    try {
      const ok = await deleteStoredFile(row.filePath, { silent: true });
      if (!ok) throw new Error('not deleted');
      removeWorks([uuid]);
      void message.success(MSG.deleteSuccess);
    } catch {
      void message.error(MSG.deleteFailed);
    } finally {
      setDeleting(false);
    }
  };

  if (!ready) {
    return (
      <span className="works-ph-actions" aria-hidden>
        <span className={onReselect ? undefined : 'works-ph-disabled'}>重选产品</span>
        <span>预览</span>
        <span className="works-ph-danger">删除</span>
      </span>
    );
  }

  const deleteButton = (
    // Once the Popconfirm is there, its trigger opens and closes it.
    <Button type="link" size="small" danger loading={deleting} onClick={asking ? undefined : () => setAsking(true)}>
      删除
    </Button>
  );

  return (
    <Flex gap={0} wrap={false}>
      <Button type="link" size="small" disabled={!onReselect} onClick={() => onReselect?.(uuid)}>
        重选产品
      </Button>
      <Button type="link" size="small" onClick={() => onPreview(uuid)}>
        预览
      </Button>
      {asking || deleting ? (
        <Popconfirm
          open={asking}
          onOpenChange={(open) => {
            if (!open) setAsking(false);
          }}
          title={MSG.deleteConfirm}
          description={deleteScope(rowByUuid(worksStore.getState(), uuid))}
          okText="确定"
          cancelText="取消"
          okButtonProps={{ danger: true, loading: deleting }}
          onConfirm={onDelete}
        >
          {deleteButton}
        </Popconfirm>
      ) : (
        deleteButton
      )}
    </Flex>
  );
});
