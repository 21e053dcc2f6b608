import type { AdminOrderRow } from '@portal/contract/admin';
import { ORDER_STATUSES, ORDER_STATUS_TEXT, type OrderStatus } from '@portal/contract/order-status';
import { Alert, Card, DatePicker, Flex, Input, Select, Table, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { Link, useLocation, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/http.ts';
import { useAdminOrders, useFilterOptions, type OrderFilters } from '../api/orders.ts';
import { StatusTag, money } from './status.tsx';

/** An order's link, which takes the list's filters along: the order page's 订单 leads back to the same rows. */
function OrderLink({ id, children }: { id: number; children: string }) {
  const { search } = useLocation();
  return <Link to={`/admin/orders/${id}`} state={{ list: search }}>{children}</Link>;
}

const columns: TableColumnsType<AdminOrderRow> = [
  { title: '订单号', dataIndex: 'salesOrderNumber', key: 'so', width: 180, render: (v: string, o) => <OrderLink id={o.id}>{v}</OrderLink> },
  { title: '下单时间', dataIndex: 'createdAt', key: 'createdAt', width: 136, render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
  { title: '批次号', dataIndex: 'batchId', key: 'batch', width: 64 },
  // One line too: a 100-character hub name made rows 280 px tall (LAN walk, 2026-11-30).
  { title: '客户中心', dataIndex: 'hubName', key: 'hub', width: 130, ellipsis: { showTitle: true } },
  // One line, the whole name on hover: an 80-character name made its row eight lines tall.
  { title: '作品', dataIndex: 'articleName', key: 'article', width: 148, ellipsis: { showTitle: true } },
  { title: '产品', key: 'product', width: 170, render: (_: unknown, o) => (
    <Flex vertical gap={0}>
      <Typography.Text>{o.productName}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{o.sku}</Typography.Text>
    </Flex>
  ) },
  { title: '数量', dataIndex: 'quantity', key: 'quantity', width: 60, align: 'right' },
  { title: '金额', dataIndex: 'amount', key: 'amount', width: 100, align: 'right', render: (v: number) => money(v) },
  { title: '状态', dataIndex: 'status', key: 'status', width: 80, render: (v: OrderStatus) => <StatusTag status={v} /> },
  { title: '快递', key: 'tracking', width: 130, ellipsis: { showTitle: true }, render: (_: unknown, o) => (o.trackingNumber ? `${o.carrier ?? ''} ${o.trackingNumber}` : '—') },
];
/**
 * The columns' widths as the table's: a fixed layout keeps 作品's ellipsis. With `max-content` the column
 * grew to a 50-character name and pushed 数量, 金额, 状态 and 快递 off a 1366 px screen (LAN probe, 2026-11-30).
 * 1,198 px in all: at 1,350 快递 was cut at 1280 and 1366 (LAN walk, 2026-11-30).
 */
const TABLE_WIDTH = columns.reduce((n, c) => n + Number(c.width ?? 0), 0);

/** The list's filters and page as the address holds them: 返回 from an order, a reload or a link shows the same rows (console walk). */
function useListState() {
  const [params, setParams] = useSearchParams();
  const num = (k: string) => (params.get(k) && Number.isInteger(Number(params.get(k))) ? Number(params.get(k)) : undefined);
  const text = (k: string) => params.get(k) || undefined;
  const status = text('status');
  const filters: OrderFilters = {
    q: text('q'), hubId: num('hubId'), productId: num('productId'), from: text('from'), to: text('to'),
    status: ORDER_STATUSES.includes(status as OrderStatus) ? (status as OrderStatus) : undefined,
  };
  const page = Math.max(0, (num('page') ?? 1) - 1);
  const size = num('size') ?? 20;
  /** New values (undefined drops one); a new filter goes back to the first page. */
  const update = (next: Record<string, string | number | undefined>, keepPage = false) => setParams((old) => {
    const p = new URLSearchParams(old);
    for (const [k, v] of Object.entries(next)) {
      if (v === undefined || v === '') p.delete(k);
      else p.set(k, String(v));
    }
    if (!keepPage) p.delete('page');
    return p;
  }, { replace: true });
  return { filters, page, size, update };
}

/** Every hub's orders, newest first, filtered and paged on the server (x-total-count), new ones fetched every 30 s. */
export function AdminOrdersPage() {
  const { filters, page, size, update } = useListState();
  const orders = useAdminOrders(page, size, filters);
  const { products, hubs } = useFilterOptions();
  const range: [Dayjs | null, Dayjs | null] | null = filters.from || filters.to ? [filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null] : null;

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>订单</Typography.Title>
      <Card size="small">
        <Flex wrap gap={12} style={{ marginBottom: 12 }}>
          <Input.Search allowClear placeholder="订单号、作品或客户名称" style={{ width: 240 }} aria-label="搜索订单"
            defaultValue={filters.q} onSearch={(q) => update({ q: q.trim() || undefined })} />
          <Select allowClear placeholder="全部状态" style={{ width: 130 }} aria-label="状态"
            options={ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_TEXT[s] }))}
            value={filters.status} onChange={(status?: OrderStatus) => update({ status })} />
          <Select allowClear showSearch optionFilterProp="label" placeholder="全部客户中心" style={{ width: 180 }} aria-label="客户中心"
            options={(hubs.data ?? []).map((h) => ({ value: h.id, label: h.name }))}
            value={filters.hubId} onChange={(hubId?: number) => update({ hubId })} />
          <Select allowClear showSearch optionFilterProp="label" placeholder="全部产品" style={{ width: 180 }} aria-label="产品"
            options={(products.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            value={filters.productId} onChange={(productId?: number) => update({ productId })} />
          <DatePicker.RangePicker value={range} placeholder={['开始日期', '结束日期']}
            onChange={(r) => update({ from: r?.[0]?.format('YYYY-MM-DD'), to: r?.[1]?.format('YYYY-MM-DD') })} />
        </Flex>
        {orders.isError && <Alert type="error" showIcon title={errorMessage(orders.error)} style={{ marginBottom: 12 }} />}
        <Table<AdminOrderRow>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={orders.data?.items ?? []}
          // A new page or filter, not the 30 s refresh: the rows do not blink.
          loading={orders.isPending || orders.isPlaceholderData}
          tableLayout="fixed"
          scroll={{ x: TABLE_WIDTH }}
          // The sideways scrollbar stays at the window's foot, not below the last row off screen (LAN walk, 1280×720).
          sticky
          locale={{ emptyText: orders.isPending ? ' ' : filters.q ? `没有订单号、作品或客户名称含“${filters.q}”的订单` : '暂无订单' }}
          pagination={{
            current: page + 1, pageSize: size, total: orders.data?.total ?? 0, showSizeChanger: true,
            showTotal: (total) => `共${total}个订单`,
            onChange: (p, s) => update({ page: s === size && p > 1 ? p : undefined, size: s === 20 ? undefined : s }, true),
          }}
        />
      </Card>
    </Flex>
  );
}
