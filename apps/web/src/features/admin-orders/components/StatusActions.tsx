import type { AdminStatusBody, AdminTrackingBody } from '@portal/contract/admin';
import { ORDER_STATUS_TEXT, TRACKING_LIMITS, type OrderStatus } from '@portal/contract/order-status';
import { Alert, App, AutoComplete, Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { useChangeStatus, useCorrectTracking } from '../api/orders.ts';

const ACTION: Record<OrderStatus, string> = {
  pending: '退回待处理', in_production: '开始生产', shipped: '发货', completed: '完成', cancelled: '取消订单',
};
const CARRIERS = ['顺丰', '中通', '圆通', '韵达', '申通', '京东', 'EMS', '德邦', '极兔'];

/** The moves the server allows now (nextStatuses), each confirmed in a dialog; shipping asks for the tracking. */
export function StatusActions({ orderId, next }: { orderId: number; next: OrderStatus[] }) {
  const [target, setTarget] = useState<OrderStatus | null>(null);
  const change = useChangeStatus(orderId);
  const [form] = Form.useForm<Omit<AdminStatusBody, 'to'>>();

  const close = () => {
    setTarget(null);
    change.reset();
    form.resetFields();
  };
  // A refused form shows its own messages under its fields: nothing more to do with the rejection.
  const { message } = App.useApp();
  // The move is said once done: only the tag changed before (console walk).
  const submit = () => form.validateFields().then((values) => {
    const to = target!;
    change.mutate({ to, ...values }, { onSuccess: () => { close(); void message.success(`已改为${ORDER_STATUS_TEXT[to]}`); } });
  }, () => undefined);

  return (
    <>
      <Space wrap>
        {next.map((s) => (
          <Button key={s} type={s === 'cancelled' ? 'default' : 'primary'} danger={s === 'cancelled'} onClick={() => setTarget(s)}>
            {ACTION[s]}
          </Button>
        ))}
      </Space>
      <Modal
        open={target !== null}
        title={target ? `${ACTION[target]}：改为${ORDER_STATUS_TEXT[target]}` : ''}
        // 取消 beside 取消订单 read as either: the buttons say what they do, and cancelling looks final (console walk).
        okText={target === 'cancelled' ? '确认取消订单' : '确定'}
        okButtonProps={{ danger: target === 'cancelled' }}
        cancelText={target === 'cancelled' ? '不取消' : '取消'}
        confirmLoading={change.isPending}
        onOk={() => void submit()}
        onCancel={close}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          {target === 'shipped' && <TrackingFields />}
          <NoteField extra="将显示在客户的订单进度中" />
        </Form>
        {change.isError && <Alert type="error" showIcon title={errorMessage(change.error)} />}
      </Modal>
    </>
  );
}

/** 更正快递单号: a shipped order's carrier and number, mistyped at 发货, put right (the customer sees the correction). */
export function TrackingCorrection({ orderId, carrier, trackingNumber }: { orderId: number; carrier: string | null; trackingNumber: string | null }) {
  const [open, setOpen] = useState(false);
  const correct = useCorrectTracking(orderId);
  const [form] = Form.useForm<AdminTrackingBody>();
  const close = () => {
    setOpen(false);
    correct.reset();
  };
  const { message } = App.useApp();
  const submit = () => form.validateFields().then((values) => correct.mutate(values, { onSuccess: () => { close(); void message.success('已更正快递单号'); } }), () => undefined);
  return (
    <>
      <Button onClick={() => setOpen(true)}>更正快递单号</Button>
      <Modal open={open} title="更正快递单号" okText="保存" cancelText="取消" confirmLoading={correct.isPending} onOk={() => void submit()} onCancel={close} destroyOnHidden>
        <Form form={form} layout="vertical" preserve={false} initialValues={{ carrier: carrier ?? '', trackingNumber: trackingNumber ?? '' }}>
          <TrackingFields />
          <NoteField extra="更正将显示在客户的订单进度中" placeholder="选填，如：单号录错" />
        </Form>
        {correct.isError && <Alert type="error" showIcon title={errorMessage(correct.error)} />}
      </Modal>
    </>
  );
}

/** The carrier and the tracking number, as shipping needs them (the server's bounds). */
function TrackingFields() {
  return (
    <>
      <Form.Item label="快递公司" name="carrier" rules={[{ required: true, whitespace: true, message: '请填写快递公司' }]}>
        <AutoComplete options={CARRIERS.map((c) => ({ value: c }))} placeholder="如 顺丰" aria-label="快递公司" maxLength={TRACKING_LIMITS.carrier} />
      </Form.Item>
      <Form.Item label="快递单号" name="trackingNumber" rules={[{ required: true, whitespace: true, message: '请填写快递单号' }]}>
        <Input placeholder="快递单号" aria-label="快递单号" maxLength={TRACKING_LIMITS.trackingNumber} />
      </Form.Item>
    </>
  );
}

/** The operator's note: it goes into the order's progress, which the customer reads in 我的订单 (console walk: taken for an internal note). */
function NoteField({ extra, placeholder = '选填' }: { extra: string; placeholder?: string }) {
  return (
    <Form.Item label="备注（客户可见）" name="note" extra={extra}>
      <Input.TextArea rows={2} maxLength={500} placeholder={placeholder} aria-label="备注" />
    </Form.Item>
  );
}
