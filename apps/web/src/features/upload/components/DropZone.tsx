import { CloudUploadOutlined, FolderOpenOutlined, LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Flex, Typography, theme } from 'antd';
import { useImperativeHandle, useRef, useState, type DragEvent, type Ref } from 'react';
import { MSG } from '@portal/contract/messages';
import { directoryPicker, isPickerCancel, readDirectory } from '../lib/directory.ts';
import { entriesOf, readDropped } from '../lib/drop.ts';
import { pickedFromFileList, readSizes, type PickedFile } from '../lib/pick.ts';

const ACCEPT = '.zip,.pdf,.png,.jpg,.jpeg';

/** The pickers of the zone, for an entry's 重新选择 (a restored upload whose files must be picked again). */
export interface DropZoneControls {
  pickFiles(): void;
  pickFolder(): void;
}

export interface DropZoneProps {
  onPicked: (files: PickedFile[]) => void;
  disabled?: boolean;
  controls?: Ref<DropZoneControls>;
}

/**
 * 上传文件 (files), 上传文件夹 (a folder, through the browser's directory picker where it has one,
 * else a `webkitdirectory` input: lib/directory.ts says why) and a zone that takes
 * dropped files and folders. Each pick or drop is handed over as one list with relative paths,
 * once every file's size is known: that reading takes seconds for a folder of thousands of files
 * (lib/pick.ts readSizes, lib/drop.ts), and is done in slices that leave the page responsive,
 * with 正在读取文件… shown meanwhile.
 */
export function DropZone({ onPicked, disabled = false, controls }: DropZoneProps) {
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [reading, setReading] = useState(0);
  const depth = useRef(0);

  /** Hands the files over once their sizes are read; `reading` counts the picks still being read. */
  const handOver = (files: Promise<PickedFile[]> | PickedFile[]) => {
    setReading((n) => n + 1);
    void Promise.resolve(files)
      .then(async (picked) => {
        await readSizes(picked);
        if (picked.length > 0) onPicked(picked);
      })
      // A file that could not be read (moved or deleted since the pick, no permission): nothing of
      // the pick is sent, and the customer is told so instead of seeing nothing happen.
      .catch(() => void message.error(MSG.uploadFailed))
      .finally(() => setReading((n) => n - 1));
  };

  const take = (input: HTMLInputElement) => {
    if (input.files && input.files.length > 0) handOver(pickedFromFileList(input.files));
    // Picking the same files again must fire `change` again.
    input.value = '';
  };

  const pickFolder = async () => {
    const picker = directoryPicker();
    if (!picker) return folderInput.current?.click();
    let root: FileSystemDirectoryHandle;
    try {
      root = await picker({ id: 'portal-upload-folder', mode: 'read' });
    } catch (error) {
      // Refused (a cross-origin frame, a policy): the input still picks folders. A refusal comes at
      // once, while the click still lets the page open a picker.
      if (!isPickerCancel(error)) folderInput.current?.click();
      return;
    }
    handOver(readDirectory(root));
  };

  useImperativeHandle(controls, () => ({ pickFiles: () => filesInput.current?.click(), pickFolder: () => void pickFolder() }));

  const onDragEnter = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    depth.current += 1;
    setOver(true);
  };
  const onDragOver = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    depth.current = 0;
    setOver(false);
    if (disabled) return;
    // The entries must be taken now: the DataTransfer is emptied once this handler returns.
    handOver(readDropped(entriesOf(e.dataTransfer)));
  };

  return (
    <div
      data-testid="upload-drop-zone"
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      style={{
        border: `1px dashed ${over ? token.colorPrimary : token.colorBorder}`,
        borderRadius: token.borderRadiusLG,
        background: over ? token.colorPrimaryBg : token.colorFillAlter,
        padding: '20px 16px',
        transition: `border-color ${token.motionDurationMid}, background ${token.motionDurationMid}`,
        height: '100%',
        boxSizing: 'border-box',
      }}
    >
      <Flex vertical align="center" justify="center" gap={10} style={{ height: '100%' }}>
        <CloudUploadOutlined style={{ fontSize: 40, color: token.colorPrimary }} />
        <Typography.Text>将文件或文件夹拖到此处，或</Typography.Text>
        <Flex gap={8} wrap justify="center">
          <Button type="primary" icon={<UploadOutlined />} disabled={disabled} onClick={() => filesInput.current?.click()}>
            上传文件
          </Button>
          <Button icon={<FolderOpenOutlined />} disabled={disabled} onClick={() => void pickFolder()}>
            上传文件夹
          </Button>
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
          支持 .zip、.pdf、.png、.jpg、.jpeg 格式，可上传整个文件夹
        </Typography.Text>
        {reading > 0 && (
          <Typography.Text type="secondary" role="status" style={{ fontSize: 12 }}>
            <LoadingOutlined /> 正在读取文件…
          </Typography.Text>
        )}
      </Flex>
      <input
        ref={filesInput}
        type="file"
        multiple
        accept={ACCEPT}
        hidden
        data-testid="upload-files-input"
        onChange={(e) => take(e.currentTarget)}
      />
      <input
        ref={(el) => {
          folderInput.current = el;
          // Not in React's typings: the attribute makes the picker choose a folder.
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        data-testid="upload-folder-input"
        onChange={(e) => take(e.currentTarget)}
      />
    </div>
  );
}
