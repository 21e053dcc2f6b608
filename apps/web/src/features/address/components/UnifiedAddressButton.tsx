import type { OrderLocation } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { Button, Flex, Modal, Typography } from 'antd';
import { useState } from 'react';
import { addressEditsStore, endAddressEdits } from '../edits.ts';
import { useFillDefaultAddress } from '../hooks/useDefaultAddress.ts';
import { addressText, planUnifiedAddress, type AddressTarget } from '../location.ts';

const NAMES_LISTED = 3;

export interface UnifiedAddressButtonProps {
  customerHubId: number | undefined;
  disabled: boolean;
  /** Every row of the order table: its uuid, its name and its saved address. */
  rows: () => ReadonlyArray<{ uuid: string; name: string; saved: OrderLocation | undefined }>;
  /** Writes `location` to these rows. */
  apply: (uuids: readonly string[], location: OrderLocation) => void;
}

interface Question {
  location: OrderLocation;
  free: AddressTarget[];
  typed: AddressTarget[];
}

/**
 * 统一设置地址: the hub's default address for every row. Rows with nothing typed take it at once;
 * when some rows hold another address the customer typed (saved, or in an open editor), the page
 * asks first: 只填写空白地址 leaves them as they are, 全部覆盖 overwrites them, 取消 changes nothing.
 */
export function UnifiedAddressButton({ customerHubId, disabled, rows, apply }: UnifiedAddressButtonProps) {
  const { fill, pending } = useFillDefaultAddress(customerHubId);
  const [question, setQuestion] = useState<Question | undefined>();

  const write = (targets: readonly AddressTarget[], location: OrderLocation) => {
    const uuids = targets.map((t) => t.uuid);
    endAddressEdits(uuids);
    if (uuids.length > 0) apply(uuids, location);
  };

  const onClick = () =>
    void fill((location) => {
      const edits = addressEditsStore.getState();
      const targets = rows().map((r) => ({ uuid: r.uuid, name: r.name, current: edits[r.uuid] ?? r.saved }));
      const plan = planUnifiedAddress(targets, location);
      if (plan.typed.length === 0) write(plan.free, location);
      else setQuestion({ location, ...plan });
    });

  const names = question
    ? question.typed
        .slice(0, NAMES_LISTED)
        .map((t) => t.name)
        .join('、') + (question.typed.length > NAMES_LISTED ? '等' : '')
    : '';

  return (
    <>
      <Button disabled={disabled} loading={pending} onClick={onClick}>
        统一设置地址
      </Button>
      <Modal
        open={question !== undefined}
        title="统一设置地址"
        onCancel={() => setQuestion(undefined)}
        destroyOnHidden
        footer={
          question && (
            <Flex justify="flex-end" gap={8}>
              <Button onClick={() => setQuestion(undefined)}>取消</Button>
              {question.free.length > 0 && (
                <Button
                  onClick={() => {
                    write(question.free, question.location);
                    setQuestion(undefined);
                  }}
                >
                  只填写空白地址
                </Button>
              )}
              <Button
                type="primary"
                danger
                onClick={() => {
                  write([...question.free, ...question.typed], question.location);
                  setQuestion(undefined);
                }}
              >
                全部覆盖
              </Button>
            </Flex>
          )
        }
      >
        {question && (
          <Flex vertical gap={8}>
            <Typography.Text>{MSG.addressOverwriteAsk(question.typed.length, names)}</Typography.Text>
            <Typography.Text type="secondary">
              默认地址：{[question.location.contact, question.location.phone, addressText(question.location)].filter(Boolean).join('，')}
            </Typography.Text>
          </Flex>
        )}
      </Modal>
    </>
  );
}
