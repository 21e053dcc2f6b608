import { App, Card, Col, Flex, Row, Alert } from 'antd';
import { useCallback, useMemo, useRef } from 'react';
import { useAccount } from '../../auth/index.ts';
import type { PickedFile } from '../lib/pick.ts';
import { useBatch } from '../../batch/index.ts';
import { uploadFlowOf } from '../upload-batch.ts';
import { CheckEntryList, type EntryActionsRenderer } from './CheckEntryList.tsx';
import { DropZone, type DropZoneControls } from './DropZone.tsx';
import { RepickContext } from './repick.ts';
import { OverallProgress } from './OverallProgress.tsx';
import { UnsupportedNotices } from './UnsupportedNotices.tsx';

export const SIZE_SPEC_WARNING = '请按照产品尺寸规格上传文件，否则文件校验将不通过';

/**
 * The height of the file-check column (its list and the overall progress): 220 px on a 720 px high window, more
 * on a taller one (30 % of it, up to 320 px); the upload area keeps that height whatever is being sent, so the
 * order table under it never moves on its own. The progress line came and went above the table, and entries grew
 * the list to 300 px and left again, as uploads began and ended: the rows moved under the customer's pointer (a
 * lost check, clean-clone CI 2026-11-30).
 */
const ENTRY_COLUMN_HEIGHT = 'clamp(220px, 30vh, 320px)';

export interface UploadAreaProps {
  renderEntryActions?: EntryActionsRenderer;
}

/**
 * The file preview area of the batch upload order page (../shared/spec/product-spec.md §2): the upload button and
 * drop zone, the overall progress, the file-check entries and the files the parse did not know.
 * It holds no upload state itself: everything is in the page's batch (features/batch).
 */
export function UploadArea({ renderEntryActions }: UploadAreaProps) {
  const { message } = App.useApp();
  const batch = useBatch();
  const account = useAccount();
  const customerHubId = account.data?.customerHubId;

  const onPicked = useCallback(
    (files: PickedFile[]) => {
      if (customerHubId === undefined) return;
      uploadFlowOf(batch).uploadPicked(files, {
        customerHubId,
        notify: {
          success: (text) => void message.success(text),
          error: (text) => void message.error(text),
          warning: (text) => void message.warning(text),
        },
      });
    },
    [batch, customerHubId, message],
  );

  const controls = useRef<DropZoneControls>(null);
  const repick = useMemo(() => ({ pickFiles: () => controls.current?.pickFiles(), pickFolder: () => controls.current?.pickFolder() }), []);

  return (
    <RepickContext value={repick}>
      <Card title="上传文件" size="small" styles={{ body: { padding: 16 } }}>
        <Flex vertical gap={12}>
          <Alert type="warning" showIcon title={SIZE_SPEC_WARNING} />
          <Row gutter={[16, 16]} align="stretch">
            <Col xs={24} lg={9} xl={8}>
              <DropZone onPicked={onPicked} disabled={customerHubId === undefined} controls={controls} />
            </Col>
            <Col xs={24} lg={15} xl={16}>
              <Flex vertical gap={8} style={{ height: ENTRY_COLUMN_HEIGHT }}>
                <CheckEntryList renderActions={renderEntryActions} />
                <OverallProgress />
              </Flex>
            </Col>
          </Row>
          <UnsupportedNotices />
        </Flex>
      </Card>
    </RepickContext>
  );
}
