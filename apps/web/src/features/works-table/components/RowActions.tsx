import { MSG } from '@portal/contract/messages';
import { App, Button, Flex, Popconfirm } from 'antd';
import { memo, useState } from 'react';
import { deleteStoredFile } from '../../upload/api/delete-file.ts';
import { removeWorks, rowByUuid, worksStore } from '../store.ts';

export interface RowActionsProps {
  uuid: string;
  onPreview: (uuid: string) => void;
  /** 重选产品; the button is disabled without it. */
  onReselect?: (uuid: string) => void;
}

/** 重选产品, 预览, 删除 (the stored file too; 确定删除当前文件？ first). */
export const RowActions = memo(function RowActions({ uuid, onPreview, onReselect }: RowActionsProps) {
  const { message } = App.useApp();
  const [deleting, setDeleting] = useState(false);

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

  return (
    <Flex gap={0} wrap={false}>
      <Button type="link" size="small" disabled={!onReselect} onClick={() => onReselect?.(uuid)}>
        重选产品
      </Button>
      <Button type="link" size="small" onClick={() => onPreview(uuid)}>
        预览
      </Button>
      <Popconfirm
        title={MSG.deleteConfirm}
        okText="确定"
        cancelText="取消"
        okButtonProps={{ danger: true, loading: deleting }}
        onConfirm={onDelete}
        onCancel={() => void message.info(MSG.deleteFailed)}
      >
        <Button type="link" size="small" danger loading={deleting}>
          删除
        </Button>
      </Popconfirm>
    </Flex>
  );
});
