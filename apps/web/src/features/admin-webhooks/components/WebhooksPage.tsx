import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Flex, Form, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { WEBHOOK_EVENT_TEXT, type WebhookDelivery } from '@portal/contract/admin-webhooks';
import { errorMessage } from '../../../lib/http.ts';
import { useDeliveries } from '../api/deliveries.ts';
import { useRemoveEndpoint, useSaveEndpoint, useWebhookEndpoint } from '../api/endpoint.ts';
import { useResendDelivery } from '../api/resend.ts';
import { useTestEndpoint } from '../api/test-endpoint.ts';

const STATUS: Record<WebhookDelivery['status'], { text: string; color: string }> = {
  pending: { text: '重试中', color: 'orange' },
  succeeded: { text: '已送达', color: 'green' },
  failed: { text: '失败', color: 'red' },
};
const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN', { hour12: false }) : '—');

/** The endpoint (URL and secret), its test button, and the delivery log with resend. */
export function WebhooksPage() {
  const { message } = App.useApp();
  const endpoint = useWebhookEndpoint();
  const save = useSaveEndpoint();
  const remove = useRemoveEndpoint();
  const test = useTestEndpoint();
  const resend = useResendDelivery();
  const [page, setPage] = useState(0);
  const [status, setStatus] = useState<WebhookDelivery['status'] | undefined>();
  const [so, setSo] = useState('');
  const deliveries = useDeliveries({ page, size: 20, status, salesOrderNumber: so || undefined });
  const [form] = Form.useForm<{ url: string; secret: string }>();
  const ep = endpoint.data;
  const fromEnv = ep?.source === 'env';
  // The saved URL fills the field once it is known (the form was drawn before the answer came).
  useEffect(() => {
    if (ep) form.setFieldsValue({ url: ep.url });
  }, [ep, form]);

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card title="Webhook 接收地址">
        {fromEnv && <Alert type="info" showIcon style={{ marginBottom: 16 }} message="地址由服务器环境变量 WEBHOOK_URL 和 WEBHOOK_SECRET 设置，此处只能查看和测试" />}
        <Form form={form} layout="vertical" disabled={fromEnv} initialValues={{ url: '', secret: '' }}
          onFinish={(v) => save.mutate({ url: v.url, secret: v.secret }, {
            onSuccess: () => { form.setFieldValue('secret', ''); void message.success('已保存'); },
            onError: (e) => void message.error(errorMessage(e)),
          })}>
          <Form.Item label="接收地址（URL）" name="url" rules={[{ required: true, message: '请填写接收地址' }]}>
            <Input placeholder="https://erp.example.com/webhooks" />
          </Form.Item>
          <Form.Item label="签名密钥" name="secret" extra="留空则保留当前密钥（首次保存时自动生成 whsec_ 开头的密钥）">
            <Input placeholder="whsec_…" />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending}>保存</Button>
            <Popconfirm
              // From the button's left edge: centred, the wide box met the window's edge (LAN re-check).
              placement="topLeft"
              title="重新生成签名密钥？"
              description="之后的投递（包括重试）都用新密钥签名，ERP 须同时改用新密钥验证。"
              okText="重新生成"
              cancelText="取消"
              disabled={!ep || fromEnv}
              onConfirm={() => save.mutate({ url: ep!.url, newSecret: true }, {
                onSuccess: () => void message.success('已生成新密钥'),
                onError: (e) => void message.error(errorMessage(e)),
              })}
            >
              <Button disabled={!ep || fromEnv}>重新生成密钥</Button>
            </Popconfirm>
            <Button disabled={!ep} loading={test.isPending} onClick={() => test.mutate(undefined, {
              onSuccess: (r) => (r.ok ? void message.success(`测试成功：HTTP ${r.statusCode}，${r.durationMs} 毫秒`) : void message.error(`测试失败：${r.error ?? ''}`)),
              onError: (e) => void message.error(errorMessage(e)),
            })}>发送测试</Button>
            {/* The shop stops sending: the endpoint goes (the API had it, the console had no way: console walk). */}
            <Popconfirm
              title="删除接收地址？"
              description="之后订单的变化不再发送给 ERP；已记录的投递保留。"
              okText="删除"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              disabled={!ep || fromEnv}
              onConfirm={() => remove.mutate(undefined, {
                onSuccess: () => {
                  form.setFieldsValue({ url: '', secret: '' });
                  void message.success('已删除接收地址，不再发送');
                },
                onError: (e) => void message.error(errorMessage(e)),
              })}
            >
              <Button danger disabled={!ep || fromEnv} loading={remove.isPending}>删除接收地址</Button>
            </Popconfirm>
          </Space>
        </Form>
        {ep && (
          <div style={{ marginTop: 16 }}>
            <Typography.Text type="secondary">当前签名密钥（ERP 用它按 Standard Webhooks 验证签名）：</Typography.Text>
            <Typography.Paragraph copyable code style={{ marginBottom: 0 }}>{ep.secret}</Typography.Paragraph>
          </div>
        )}
      </Card>
      <Card title="投递记录">
        <Space style={{ marginBottom: 16 }}>
          <Select allowClear placeholder="状态" style={{ width: 120 }} value={status} onChange={(v) => { setStatus(v); setPage(0); }}
            options={Object.entries(STATUS).map(([value, s]) => ({ value, label: s.text }))} />
          <Input.Search allowClear placeholder="订单号" onSearch={(v) => { setSo(v.trim()); setPage(0); }} style={{ width: 240 }} />
        </Space>
        <Table<WebhookDelivery> rowKey="id" size="small" loading={deliveries.isLoading} dataSource={deliveries.data?.items ?? []}
          pagination={{ current: page + 1, pageSize: 20, total: deliveries.data?.total ?? 0, onChange: (p) => setPage(p - 1), showSizeChanger: false }}
          expandable={{
            expandedRowRender: (d) => (
              <Table size="small" rowKey={(a) => a.at} pagination={false} dataSource={d.attemptLog}
                columns={[
                  { title: '时间', dataIndex: 'at', render: time },
                  { title: '地址', dataIndex: 'url' },
                  { title: '状态码', dataIndex: 'statusCode', render: (v: number | null) => v ?? '—' },
                  { title: '错误', dataIndex: 'error', render: (v: string | null) => v ?? '—' },
                  { title: '耗时（毫秒）', dataIndex: 'durationMs' },
                ]} />
            ),
          }}
          columns={[
            { title: '时间', dataIndex: 'createdAt', width: 170, render: time },
            // The event in Chinese over its type (the type on a line of its own: it wrapped mid-word beside it).
            { title: '事件', dataIndex: 'eventType', width: 170, render: (v: string) => (
              <Flex vertical gap={0}>{WEBHOOK_EVENT_TEXT[v] ?? v}<Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>{v}</Typography.Text></Flex>
            ) },
            // The whole order number: its last digits tell orders apart (a narrow cell cut them off under the next column).
            { title: '订单号', dataIndex: 'salesOrderNumber', width: 200, render: (v: string | null) => <span style={{ whiteSpace: 'nowrap' }}>{v ?? '—'}</span> },
            { title: '状态', dataIndex: 'status', width: 80, render: (s: WebhookDelivery['status']) => <Tag color={STATUS[s].color}>{STATUS[s].text}</Tag> },
            { title: '尝试次数', dataIndex: 'attempts', width: 80 },
            { title: '最后状态码', dataIndex: 'lastStatusCode', width: 90, render: (v: number | null) => v ?? '—' },
            { title: '错误', dataIndex: 'lastError', ellipsis: true, render: (v: string | null) => v ?? '—' },
            { title: '下次重试', dataIndex: 'nextAttemptAt', render: time },
            { title: 'webhook-id', dataIndex: 'webhookId', ellipsis: true },
            {
              title: '操作', key: 'actions',
              render: (_, d) => (
                <Button size="small" loading={resend.isPending && resend.variables === d.id}
                  onClick={() => resend.mutate(d.id, { onSuccess: () => void message.success('已重新发送'), onError: (e) => void message.error(errorMessage(e)) })}>重新发送</Button>
              ),
            },
          ]} />
      </Card>
    </Space>
  );
}
