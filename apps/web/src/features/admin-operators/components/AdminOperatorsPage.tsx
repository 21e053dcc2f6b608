import type { AdminOperator } from '@portal/contract/admin';
import { Alert, App, Button, Card, Flex, Form, Input, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { FormDialog } from '../../../components/FormDialog.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { useOperatorMutations, useOperators, type OperatorInput } from '../api/operators.ts';

/**
 * 员工账号: the shop's staff logins, added, disabled or enabled, given a new password, as a hub's customer logins are
 * (a departing staff member's login could only be locked by SQL: operators' walk). The server refuses disabling one's
 * own login and the last enabled one; the own row's 停用 is greyed out to say so before it is tried.
 */
export function AdminOperatorsPage() {
  const operators = useOperators();
  const m = useOperatorMutations();
  const { message } = App.useApp();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<AdminOperator | null>(null);
  const [addForm] = Form.useForm<OperatorInput>();
  const [pwForm] = Form.useForm<{ password: string }>();

  const toggle = (o: AdminOperator) => m.setDisabled.mutateAsync({ id: o.id, disabled: !o.disabled })
    .then(() => void message.success(o.disabled ? `已启用 ${o.login}` : `已停用 ${o.login}`), (e: unknown) => void message.error(errorMessage(e)));

  return (
    <Flex vertical gap={16}>
      <Flex align="center" justify="space-between">
        <Typography.Title level={3} style={{ margin: 0 }}>员工账号</Typography.Title>
        <Button type="primary" onClick={() => { m.add.reset(); setAdding(true); }}>添加员工</Button>
      </Flex>
      {operators.isError && <Alert type="error" showIcon title={errorMessage(operators.error)} />}
      <Card size="small">
        <Table<AdminOperator> size="small" rowKey="id" loading={operators.isFetching} dataSource={operators.data ?? []} pagination={false}
          locale={{ emptyText: '暂无员工账号' }}
          columns={[
            { title: '登录名', dataIndex: 'login', key: 'login', render: (v: string, o) => <Space>{v}{o.self && <Tag color="blue">当前登录</Tag>}</Space> },
            { title: '状态', dataIndex: 'disabled', key: 'disabled', render: (d: boolean) => (d ? <Tag>已停用</Tag> : <Tag color="green">正常</Tag>) },
            { title: '创建时间', dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
            { title: '操作', key: 'actions', render: (_: unknown, o) => (
              <Space>
                <Button size="small" type="link" onClick={() => { m.resetPassword.reset(); setResetting(o); }}>重置密码</Button>
                {o.self && !o.disabled ? (
                  <Tooltip title="不能停用自己的账号"><Button size="small" type="link" danger disabled>停用</Button></Tooltip>
                ) : (
                  <Popconfirm title={o.disabled ? `启用 ${o.login}？` : `停用 ${o.login}？停用后不能登录，已登录的也会退出。`} okText="确定" cancelText="取消"
                    onConfirm={() => toggle(o)}>
                    <Button size="small" type="link" danger={!o.disabled}>{o.disabled ? '启用' : '停用'}</Button>
                  </Popconfirm>
                )}
              </Space>
            ) },
          ]} />
      </Card>
      <Typography.Text type="secondary">
        停用或重置密码后，该员工已登录的操作台在下一次操作时退出。忘记了所有员工的密码时，在服务器上运行 npm run add-operator -- 登录名 新密码 --reset。
      </Typography.Text>
      <FormDialog<OperatorInput> open={adding} title="添加员工" form={addForm} pending={m.add.isPending} error={m.add.error}
        onClose={() => setAdding(false)}
        onSubmit={(v) => m.add.mutate(v, { onSuccess: () => { setAdding(false); void message.success(`已添加 ${v.login.trim()}`); } })}>
        <Form.Item label="登录名" name="login" rules={[{ required: true, whitespace: true, message: '请填写登录名' }]}><Input autoComplete="off" maxLength={50} /></Form.Item>
        <Form.Item label="密码" name="password" rules={[{ required: true, message: '请填写密码' }, { min: 4, message: '密码至少 4 个字符' }]}><Input.Password autoComplete="new-password" /></Form.Item>
      </FormDialog>
      <FormDialog<{ password: string }> open={resetting !== null} title={`重置密码：${resetting?.login ?? ''}`} form={pwForm} pending={m.resetPassword.isPending} error={m.resetPassword.error}
        onClose={() => setResetting(null)}
        onSubmit={(v) => m.resetPassword.mutate({ id: resetting!.id, password: v.password }, { onSuccess: () => { setResetting(null); void message.success('密码已重置，该账号需重新登录'); } })}>
        {resetting?.self && <Alert style={{ marginBottom: 12 }} type="info" showIcon title="这是您自己的账号：重置后请用新密码重新登录" />}
        <Form.Item label="新密码" name="password" rules={[{ required: true, message: '请填写新密码' }, { min: 4, message: '密码至少 4 个字符' }]}><Input.Password autoComplete="new-password" /></Form.Item>
      </FormDialog>
    </Flex>
  );
}
