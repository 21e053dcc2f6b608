import { Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { rowByUuid, useBatch } from '../../batch/index.ts';

export interface RenameDialogProps {
  /** The work being renamed; closed when undefined. */
  uuid: string | undefined;
  onClose: () => void;
}

/**
 * 修改作品名称. An empty name is kept as typed: 批量下单 names the problem (作品名称不能为空)
 * rather than this dialog refusing it.
 */
export function RenameDialog({ uuid, onClose }: RenameDialogProps) {
  const { updateWork, worksStore } = useBatch();
  const [value, setValue] = useState('');
  const [shown, setShown] = useState<string | undefined>(undefined);
  if (shown !== uuid) {
    setShown(uuid);
    setValue(uuid ? (rowByUuid(worksStore.getState(), uuid)?.articleName ?? '') : '');
  }

  const save = () => {
    if (uuid) updateWork(uuid, { articleName: value.trim() });
    onClose();
  };

  return (
    <Modal open={uuid !== undefined} title="修改作品名称" okText="确定" cancelText="取消" onOk={save} onCancel={onClose} destroyOnHidden>
      <Input
        aria-label="作品名称"
        autoFocus
        maxLength={255}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onPressEnter={save}
        status={value.trim() ? undefined : 'warning'}
      />
      {!value.trim() && (
        <Typography.Text type="warning" style={{ display: 'block', marginTop: 8 }}>
          作品名称为空时无法下单
        </Typography.Text>
      )}
    </Modal>
  );
}
