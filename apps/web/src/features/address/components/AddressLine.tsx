import type { OrderLocation } from '@portal/contract/api';
import { Button, Flex, Input, Typography } from 'antd';
import { useRef } from 'react';
import { ELLIPSIS } from '../../../lib/styles.ts';
import { endAddressEdits, patchAddressEdit, startAddressEdit, useAddressEdit } from '../edits.ts';
import { addressText, emptyLocation, GAP_TEXT, isBadPhone, locationGap, trimLocation } from '../location.ts';
import { RegionSelects } from './RegionSelects.tsx';

export interface AddressLineProps {
  /** The work the address is for; editors are kept per uuid. */
  uuid: string;
  /** The row's saved location (its orderLocations[0]). */
  value: OrderLocation | undefined;
  onSave: (location: OrderLocation) => void;
}

const label = (text: string) => (
  <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
    {text}
  </Typography.Text>
);

/**
 * The address line of a row when the hub has batchAddressParsing (../shared/spec/product-spec.md §2): 收件人,
 * 联系电话, 省/市/区, 详细地址, with 编辑 and 保存. A saved address may be incomplete; the
 * submit checks name what is missing.
 */
export function AddressLine({ uuid, value, onSave }: AddressLineProps) {
  const edit = useAddressEdit(uuid);
  const box = useRef<HTMLDivElement>(null);
  // After 保存 or 取消 (or Enter, Escape) the keyboard stays on the row: its 编辑 (focus went to the page's top).
  const refocus = () => requestAnimationFrame(() => box.current?.querySelector('button')?.focus());

  if (!edit) {
    const filled = value && (value.contact || value.phone || value.province || value.address);
    // A saved address that is not complete says what it lacks at once (a phone left empty was only found at 批量下单).
    const gap = filled ? locationGap(value) : null;
    return (
      <div ref={box} style={{ minWidth: 0 }}>
      <Flex align="center" gap={12} wrap={false} style={{ minHeight: 32, minWidth: 0 }} data-testid="address-line">
        {label('收货信息')}
        {filled ? (
          <>
            <Typography.Text style={ELLIPSIS}>
              {[value.contact, value.phone, addressText(value)].filter(Boolean).join('，')}
            </Typography.Text>
            {gap && <Typography.Text type="danger" style={{ whiteSpace: 'nowrap' }} data-testid="address-gap">{GAP_TEXT[gap]}</Typography.Text>}
          </>
        ) : (
          <Typography.Text type="danger">未填写收货地址</Typography.Text>
        )}
        <Button type="link" size="small" onClick={() => startAddressEdit(uuid, { ...emptyLocation(), ...value })}>
          编辑
        </Button>
      </Flex>
      </div>
    );
  }

  const patch = (p: Partial<OrderLocation>) => patchAddressEdit(uuid, p);
  // Flagged as it is typed; 保存 keeps it as any incomplete address, its line says what it lacks, and 批量下单 names the work.
  const badPhone = isBadPhone(edit.phone);
  const save = () => {
    onSave(trimLocation(edit));
    endAddressEdits([uuid]);
    refocus();
  };
  const cancel = () => {
    endAddressEdits([uuid]);
    refocus();
  };
  return (
    <div ref={box} onKeyDown={(e) => e.key === 'Escape' && cancel()}>
    <Flex align="center" gap={8} wrap={false} style={{ minHeight: 32 }} data-testid="address-editor">
      {label('收货信息')}
      <Input size="small" aria-label="收件人" placeholder="收件人" style={{ width: 96 }} maxLength={50} value={edit.contact} onChange={(e) => patch({ contact: e.target.value })} onPressEnter={save} />
      <Input
        size="small"
        aria-label="联系电话"
        placeholder="联系电话"
        style={{ width: 128 }}
        maxLength={30}
        value={edit.phone}
        status={badPhone ? 'error' : undefined}
        title={badPhone ? '联系电话格式不正确（手机号或带区号的固定电话）' : undefined}
        onChange={(e) => patch({ phone: e.target.value })}
        onPressEnter={save}
      />
      <RegionSelects value={edit} onChange={(r) => patch(r)} />
      <Input size="small" aria-label="详细地址" placeholder="详细地址" style={{ width: 260 }} maxLength={200} value={edit.address} onChange={(e) => patch({ address: e.target.value })} onPressEnter={save} />
      <Button size="small" type="primary" onClick={save}>
        保存
      </Button>
      <Button size="small" onClick={cancel}>
        取消
      </Button>
      {badPhone && (
        <Typography.Text type="danger" style={{ whiteSpace: 'nowrap', fontSize: 12 }}>
          联系电话格式不正确
        </Typography.Text>
      )}
    </Flex>
    </div>
  );
}
