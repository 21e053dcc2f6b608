import type { AdminAddressRow, AdminHub, AdminLogin } from '@portal/contract/admin';
import { Alert, App, Button, Card, Flex, Form, Input, Popconfirm, Space, Switch, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { RegionSelects } from '../../address/index.ts';
import { useAddresses, useHubMutations, useHubs, useLogins, type AddressInput, type HubInput, type LoginInput } from '../api/hubs.ts';
import { FormDialog } from '../../../components/FormDialog.tsx';

type Mutations = ReturnType<typeof useHubMutations>;

function LoginsTab({ hub, m }: { hub: AdminHub; m: Mutations }) {
  const logins = useLogins(hub.id);
  const { message } = App.useApp();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<AdminLogin | null>(null);
  const [addForm] = Form.useForm<LoginInput>();
  const [pwForm] = Form.useForm<{ password: string }>();

  return (
    <Flex vertical gap={8}>
      <div><Button size="small" onClick={() => { m.addLogin.reset(); setAdding(true); }}>添加登录账号</Button></div>
      <Table<AdminLogin> size="small" rowKey="id" loading={logins.isFetching} dataSource={logins.data ?? []} pagination={false}
        locale={{ emptyText: '暂无登录账号' }}
        columns={[
          { title: '登录名', dataIndex: 'login', key: 'login' },
          { title: '客户', dataIndex: 'customerName', key: 'customer' },
          { title: '状态', dataIndex: 'disabled', key: 'disabled', render: (d: boolean) => (d ? <Tag>已停用</Tag> : <Tag color="green">正常</Tag>) },
          { title: '创建时间', dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
          { title: '操作', key: 'actions', render: (_: unknown, l) => (
            <Space>
              <Button size="small" type="link" onClick={() => { m.resetPassword.reset(); setResetting(l); }}>重置密码</Button>
              <Popconfirm title={l.disabled ? `启用 ${l.login}？` : `停用 ${l.login}？停用后不能登录，已登录的也会退出。`} okText="确定" cancelText="取消"
                onConfirm={() => m.setDisabled.mutateAsync({ id: l.id, disabled: !l.disabled }).then(() => void message.success(l.disabled ? '已启用' : '已停用'), (e: unknown) => void message.error(errorMessage(e)))}>
                <Button size="small" type="link" danger={!l.disabled}>{l.disabled ? '启用' : '停用'}</Button>
              </Popconfirm>
            </Space>
          ) },
        ]} />
      <FormDialog<LoginInput> open={adding} title={`添加登录账号：${hub.name}`} form={addForm} pending={m.addLogin.isPending} error={m.addLogin.error}
        onClose={() => setAdding(false)}
        onSubmit={(v) => m.addLogin.mutate({ hubId: hub.id, ...v }, { onSuccess: () => { setAdding(false); void message.success('已添加'); } })}>
        <Form.Item label="登录名" name="login" rules={[{ required: true, whitespace: true, message: '请填写登录名' }]}><Input autoComplete="off" maxLength={50} /></Form.Item>
        <Form.Item label="密码" name="password" rules={[{ required: true, message: '请填写密码' }, { min: 4, message: '密码至少 4 个字符' }]}><Input.Password autoComplete="new-password" /></Form.Item>
        <Form.Item label="客户名称" name="customerName" extra="选填；不填时为客户中心唯一的客户"><Input maxLength={100} showCount /></Form.Item>
      </FormDialog>
      <FormDialog<{ password: string }> open={resetting !== null} title={`重置密码：${resetting?.login ?? ''}`} form={pwForm} pending={m.resetPassword.isPending} error={m.resetPassword.error}
        onClose={() => setResetting(null)}
        onSubmit={(v) => m.resetPassword.mutate({ id: resetting!.id, password: v.password }, { onSuccess: () => { setResetting(null); void message.success('密码已重置，该账号需重新登录'); } })}>
        <Form.Item label="新密码" name="password" rules={[{ required: true, message: '请填写新密码' }, { min: 4, message: '密码至少 4 个字符' }]}><Input.Password autoComplete="new-password" /></Form.Item>
      </FormDialog>
    </Flex>
  );
}

const EMPTY_ADDRESS: AddressInput = { contact: '', phone: '', province: '', city: '', district: '', address: '', isDefault: true };

function AddressesTab({ hub, m }: { hub: AdminHub; m: Mutations }) {
  const addresses = useAddresses(hub.id);
  const { message } = App.useApp();
  const [editing, setEditing] = useState<AdminAddressRow | 'new' | null>(null);
  const [form] = Form.useForm<AddressInput>();
  const mutation = editing === 'new' ? m.addAddress : m.updateAddress;
  const save = (v: AddressInput) => {
    const done = { onSuccess: () => { setEditing(null); void message.success('已保存'); } };
    if (editing === 'new') m.addAddress.mutate({ hubId: hub.id, ...v }, done);
    else if (editing) m.updateAddress.mutate({ id: editing.id, ...v }, done);
  };

  return (
    <Flex vertical gap={8}>
      <div><Button size="small" onClick={() => { m.addAddress.reset(); setEditing('new'); }}>新增地址</Button></div>
      <Table<AdminAddressRow> size="small" rowKey="id" loading={addresses.isFetching} dataSource={addresses.data ?? []} pagination={false}
        locale={{ emptyText: '暂无地址' }}
        columns={[
          { title: '收件人', dataIndex: 'contact', key: 'contact' },
          { title: '电话', dataIndex: 'phone', key: 'phone' },
          { title: '地址', key: 'address', render: (_: unknown, a) => `${a.province}${a.city}${a.district}${a.address}` },
          { title: '默认', dataIndex: 'isDefault', key: 'isDefault', render: (d: boolean) => (d ? <Tag color="blue">默认</Tag> : null) },
          { title: '操作', key: 'actions', render: (_: unknown, a) => (
            <Space>
              <Button size="small" type="link" onClick={() => { m.updateAddress.reset(); setEditing(a); }}>编辑</Button>
              <Popconfirm title="删除该地址？" okText="删除" cancelText="取消"
                onConfirm={() => m.removeAddress.mutateAsync(a.id).then(() => undefined, (e: unknown) => void message.error(errorMessage(e)))}>
                <Button size="small" type="link" danger>删除</Button>
              </Popconfirm>
            </Space>
          ) },
        ]} />
      <FormDialog<AddressInput> open={editing !== null} title={editing === 'new' ? `新增地址：${hub.name}` : '编辑地址'} form={form}
        initialValues={editing === 'new' || editing === null ? EMPTY_ADDRESS : editing}
        pending={mutation.isPending} error={mutation.error} onClose={() => setEditing(null)} onSubmit={save}>
        <Form.Item label="收件人" name="contact" rules={[{ required: true, whitespace: true, message: '请填写收件人' }]}><Input /></Form.Item>
        <Form.Item label="联系电话" name="phone" rules={[{ required: true, whitespace: true, message: '请填写联系电话' }]}><Input /></Form.Item>
        <Form.Item label="省/市/区" required>
          <Form.Item noStyle shouldUpdate>
            {() => (
              <RegionSelects size="middle"
                value={{ province: form.getFieldValue('province') ?? '', city: form.getFieldValue('city') ?? '', district: form.getFieldValue('district') ?? '' }}
                onChange={(r) => form.setFieldsValue(r)} />
            )}
          </Form.Item>
          <Form.Item name="province" noStyle rules={[{ required: true, message: '请选择省份' }]}><Input type="hidden" /></Form.Item>
          <Form.Item name="city" noStyle rules={[{ required: true, message: '请选择城市' }]}><Input type="hidden" /></Form.Item>
          <Form.Item name="district" noStyle rules={[{ required: true, message: '请选择区县' }]}><Input type="hidden" /></Form.Item>
        </Form.Item>
        <Form.Item label="详细地址" name="address" rules={[{ required: true, whitespace: true, message: '请填写详细地址' }]}><Input /></Form.Item>
        <Form.Item label="设为默认地址" name="isDefault" valuePropName="checked"><Switch /></Form.Item>
      </FormDialog>
    </Flex>
  );
}

/** The customer hubs: add, rename, batchAddressParsing, and per hub its logins and default addresses. */
/**
 * What a hub still lacks before its customers can order: prices (imported per customer name) and, for a hub whose
 * batch goes to one address, a default address. A hub made here had neither, and nothing said so (LAN walk).
 */
function Readiness({ hub }: { hub: AdminHub }) {
  const names = hub.customerNames.map((n) => `「${n}」`).join('、');
  const noAddress = !hub.batchAddressParsing && !hub.hasDefaultAddress;
  // A customer of the hub with a login and no price sees 暂无 for every product, though the hub's other customer has prices.
  const unpriced = hub.pricedSkus > 0 ? hub.unpricedCustomers : [];
  if (hub.pricedSkus > 0 && unpriced.length === 0 && !noAddress) return <Tag color="green">可下单（{hub.pricedSkus}个商品有价格）</Tag>;
  return (
    <Flex gap={4} wrap>
      {hub.pricedSkus === 0 && (
        <Tooltip title={`产品目录中还没有客户${names}的价格：在目录文件 prices 的 customerPrices 中加入 customer 为该名称的价格，再导入`}>
          <Tag color="red">无价格</Tag>
        </Tooltip>
      )}
      {unpriced.length > 0 && (
        <Tooltip title={`客户${unpriced.map((n) => `「${n}」`).join('、')}有登录账号，但产品目录中没有它的价格：它的账号看到的价格都是“暂无”，不能下单。在目录文件 prices 的 customerPrices 中加入 customer 为该名称的价格，再导入`}>
          <Tag color="red">{unpriced.map((n) => `「${n}」`).join('、')}无价格</Tag>
        </Tooltip>
      )}
      {noAddress && (
        <Tooltip title="统一收货的客户需要默认收货地址：展开本行，在“默认地址”中添加">
          <Tag color="orange">无默认地址</Tag>
        </Tooltip>
      )}
    </Flex>
  );
}

export function AdminHubsPage() {
  const hubs = useHubs();
  const m = useHubMutations();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<AdminHub | 'new' | null>(null);
  const [form] = Form.useForm<HubInput>();
  const mutation = editing === 'new' ? m.createHub : m.updateHub;
  const save = (v: HubInput) => {
    const done = { onSuccess: () => { setEditing(null); void message.success('已保存'); } };
    if (editing === 'new') m.createHub.mutate(v, done);
    else if (editing) m.updateHub.mutate({ id: editing.id, name: v.name }, done);
  };

  return (
    <Flex vertical gap={16}>
      <Flex align="center" justify="space-between">
        <Typography.Title level={3} style={{ margin: 0 }}>客户中心</Typography.Title>
        <Button type="primary" onClick={() => { m.createHub.reset(); setEditing('new'); }}>新增客户中心</Button>
      </Flex>
      {hubs.isError && <Alert type="error" showIcon title={errorMessage(hubs.error)} />}
      <Card size="small">
        <Table<AdminHub> size="small" rowKey="id" loading={hubs.isFetching} dataSource={hubs.data ?? []} pagination={false}
          expandable={{ expandedRowRender: (h) => (
            <Tabs size="small" items={[
              { key: 'logins', label: '登录账号', children: <LoginsTab hub={h} m={m} /> },
              { key: 'addresses', label: '默认地址', children: <AddressesTab hub={h} m={m} /> },
            ]} />
          ) }}
          columns={[
            { title: 'ID', dataIndex: 'id', key: 'id', width: 60 },
            { title: '名称', dataIndex: 'name', key: 'name' },
            // The header on one line (址 stood alone on a second: console walk). The switch asks first, saying what the
            // customer's open batch will need (it switched at a click: LAN re-walk), and says what it changed.
            { title: <span style={{ whiteSpace: 'nowrap' }}>按作品填写地址</span>, dataIndex: 'batchAddressParsing', key: 'bap', width: 130, render: (v: boolean, h) => (
              <Popconfirm okText="确定" cancelText="取消"
                title={v ? '改为整批发往默认地址？' : '改为按作品填写地址？'}
                description={v ? '该客户的作品将统一发往默认地址；正在填写的订单需返回修改后再提交。' : '该客户需为每个作品分别填写收货地址；正在填写的订单需返回补填后再提交。'}
                onConfirm={() => m.updateHub.mutateAsync({ id: h.id, batchAddressParsing: !v }).then(
                  () => void message.success(v ? `${h.name}：改为整批发往默认地址` : `${h.name}：改为按作品填写地址`),
                  (e: unknown) => void message.error(errorMessage(e)))}>
                <Switch checked={v} aria-label={`${h.name} 按作品填写地址`} loading={m.updateHub.isPending && m.updateHub.variables?.id === h.id} />
              </Popconfirm>
            ) },
            { title: '可否下单', key: 'ready', width: 190, render: (_: unknown, h) => <Readiness hub={h} /> },
            { title: '登录账号', dataIndex: 'logins', key: 'logins', width: 90 },
            { title: '订单', dataIndex: 'orders', key: 'orders', width: 80 },
            { title: '操作', key: 'actions', width: 90, render: (_: unknown, h) => <Button size="small" type="link" onClick={() => { m.updateHub.reset(); setEditing(h); }}>重命名</Button> },
          ]} />
      </Card>
      <FormDialog<HubInput> open={editing !== null} title={editing === 'new' ? '新增客户中心' : '重命名客户中心'} form={form}
        initialValues={editing === 'new' || editing === null ? { name: '', batchAddressParsing: false } : { name: editing.name }}
        pending={mutation.isPending} error={mutation.error} onClose={() => setEditing(null)} onSubmit={save}>
        <Form.Item label="名称" name="name" rules={[{ required: true, whitespace: true, message: '请填写客户中心名称' }]}><Input maxLength={100} showCount /></Form.Item>
        {editing === 'new' && (
          <>
            <Form.Item label="客户名称" name="customerName" extra="价格按客户名称匹配；不填时与客户中心同名"><Input maxLength={100} showCount /></Form.Item>
            <Form.Item label="按作品填写地址" name="batchAddressParsing" valuePropName="checked" tooltip="开启后，客户为每个作品分别填写收货地址；关闭时整批发往客户的默认地址"><Switch /></Form.Item>
          </>
        )}
      </FormDialog>
    </Flex>
  );
}
