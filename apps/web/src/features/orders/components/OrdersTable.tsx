import type { SalesOrder } from '@portal/contract/api';
import { Alert, App, Button, Flex, Image, List, Popconfirm, Table, Tag, Timeline, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { addressText } from '../../address/index.ts';
import { useCancelOrder } from '../api/cancel.ts';
import { useOrders } from '../api/orders.ts';
import { moneyText } from '../lib/money.ts';

const PAGE_SIZES = [10, 20, 50, 100];

const skuLines = (sku: string) =>
  sku
    .split(/[;；]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The order's files, each with its thumbnail (page 1 of a PDF; a click shows it large): in a batch of hundreds the
 * customer finds a work by its picture, not only its name. Thumbnails load as they scroll into the list's view.
 */
function Files({ order }: { order: SalesOrder }) {
  return (
    <Image.PreviewGroup>
      <List
        size="small"
        header={<Typography.Text type="secondary">{`文件（${order.files.length}个）`}</Typography.Text>}
        dataSource={order.files}
        renderItem={(f) => (
          <List.Item>
            <Flex gap={8} align="center">
              <Image src={f.thumbnailUrl} alt={f.fileName} width={48} height={48} loading="lazy" style={{ objectFit: 'contain', background: '#fafafa' }} />
              <Typography.Text>{f.fileName}</Typography.Text>
              {f.component && <Tag>{f.component}</Tag>}
            </Flex>
          </List.Item>
        )}
        style={{ maxHeight: 320, overflowY: 'auto' }}
      />
    </Image.PreviewGroup>
  );
}

const STATUS_COLOR: Record<SalesOrder['status'], string> = { pending: 'gold', in_production: 'blue', shipped: 'cyan', completed: 'green', cancelled: 'default' };

/** Where the order has been: every change of status, oldest first, with the tracking number once shipped. */
function OrderTimeline({ order }: { order: SalesOrder }) {
  return (
    <Flex vertical gap={8} style={{ minWidth: 260 }}>
      <Typography.Text type="secondary">订单进度</Typography.Text>
      <Timeline
        items={order.timeline.map((h) => ({
          children: (
            <Flex vertical gap={0}>
              {/* A row of the same status is the shop's correction of the tracking number. */}
              <Typography.Text>{`${h.from === h.to ? '快递单号已更正' : h.toText}  ${dayjs(h.at).format('YYYY-MM-DD HH:mm')}`}</Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {[h.from === null ? '下单' : h.by, h.trackingNumber ? `${h.carrier ?? ''} ${h.trackingNumber}` : '', h.note ? `备注：${h.note}` : '']
                  .filter(Boolean)
                  .join('，')}
              </Typography.Text>
            </Flex>
          ),
        }))}
      />
    </Flex>
  );
}

function CancelButton({ order }: { order: SalesOrder }) {
  const cancel = useCancelOrder();
  const { message } = App.useApp();
  if (order.status !== 'pending') return null;
  return (
    <Popconfirm
      title={`取消订单 ${order.salesOrderNumber}？`}
      okText="取消订单"
      cancelText="不取消"
      onConfirm={() =>
        cancel.mutateAsync(order.salesOrderNumber).then(
          () => void message.success('订单已取消'),
          (e: unknown) => void message.error(errorMessage(e)),
        )
      }
    >
      <Button size="small" danger loading={cancel.isPending}>
        取消订单
      </Button>
    </Popconfirm>
  );
}

const columns: TableColumnsType<SalesOrder> = [
  {
    // The status sits under the number rather than in a column of its own: every column stays in sight.
    // Every column adds up to 1,150 px (1,198 with the expand column): 收货地址 was cut under the fixed 金额 on a 1280 px screen (LAN walk, 2026-11-30).
    title: '订单号 / 状态',
    key: 'salesOrderNumber',
    width: 180,
    render: (_: unknown, o) => (
      <Flex vertical gap={4} align="flex-start">
        <Typography.Text>{o.salesOrderNumber}</Typography.Text>
        <Flex gap={4} align="center" wrap>
          <Tag color={STATUS_COLOR[o.status]} data-testid="order-status">
            {o.statusText}
          </Tag>
          <CancelButton order={o} />
        </Flex>
        {o.trackingNumber && (
          <Typography.Text style={{ fontSize: 12 }} data-testid="order-tracking">
            {`${o.carrier ?? ''} ${o.trackingNumber}`}
          </Typography.Text>
        )}
      </Flex>
    ),
  },
  {
    title: '下单时间',
    dataIndex: 'createdAt',
    key: 'createdAt',
    width: 140,
    render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
  },
  {
    title: '作品',
    key: 'work',
    width: 140,
    render: (_: unknown, o) => (
      <Flex vertical gap={0}>
        <Typography.Text>{o.articleName}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {o.files.length}个文件
        </Typography.Text>
      </Flex>
    ),
  },
  {
    title: '产品',
    key: 'product',
    width: 150,
    render: (_: unknown, o) => (
      <Flex vertical gap={0}>
        <Typography.Text>{o.productName}</Typography.Text>
        {skuLines(o.sku).map((s) => (
          <Typography.Text key={s} type="secondary" style={{ fontSize: 12 }}>
            {s}
          </Typography.Text>
        ))}
        {/* The customer's choice on the batch page, as its job ticket says it (LAN walk, 2026-11-30: shown only to the shop). */}
        {o.toning === 'Manual' && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="manual-toning">
            人工调色
          </Typography.Text>
        )}
      </Flex>
    ),
  },
  { title: '数量', dataIndex: 'quantity', key: 'quantity', width: 70, align: 'right' },
  {
    title: '页数',
    key: 'pages',
    width: 70,
    align: 'right',
    // Extra pages only where the price counted them (copy basis); an older order did not price them.
    render: (_: unknown, o) => (o.pricing?.basis === 'copy' && o.addPageNum ? `${o.pageCount}（加${o.addPageNum}）` : o.pageCount),
  },
  {
    title: '收货地址',
    key: 'location',
    width: 230,
    // Every address with its copies when a work goes to several (an API client may send them; only the first showed).
    render: (_: unknown, o) => {
      const all = o.orderLocations ?? [];
      if (all.length === 0) return '—';
      return (
        <Flex vertical gap={4}>
          {all.map((l, i) => (
            <Flex key={i} vertical gap={0}>
              <Typography.Text style={{ fontSize: 12 }}>
                {[l.contact, l.phone].filter(Boolean).join('，')}
                {all.length > 1 && l.quantity ? `（${l.quantity}份）` : ''}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {addressText(l)}
              </Typography.Text>
            </Flex>
          ))}
        </Flex>
      );
    },
  },
  {
    title: '金额',
    dataIndex: 'amount',
    key: 'amount',
    width: 170,
    align: 'right',
    // Whatever the screen's width, the amount stays in sight, with what it is made of under it.
    fixed: 'right',
    render: (v: number, o) => (
      <Flex vertical gap={0} align="flex-end">
        <Typography.Text strong>{moneyText(v)}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'right' }} data-testid="price-basis">
          {o.basisText}
        </Typography.Text>
      </Flex>
    ),
  },
];

/** The hub's orders, newest first, a page at a time (the server counts them: x-total-count). */
export function OrdersTable() {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const orders = useOrders(page, size);

  return (
    <Flex vertical gap={12}>
      {orders.isError && <Alert type="error" showIcon title={errorMessage(orders.error)} />}
      <Table<SalesOrder>
        rowKey="salesOrderNumber"
        size="small"
        columns={columns}
        dataSource={orders.data?.items ?? []}
        loading={orders.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: orders.isPending ? ' ' : '暂无订单' }}
        expandable={{
          expandedRowRender: (o) => (
            <Flex gap={24} wrap>
              <OrderTimeline order={o} />
              <div style={{ flex: 1, minWidth: 260 }}>
                <Files order={o} />
              </div>
            </Flex>
          ),
        }}
        pagination={{
          current: page + 1,
          pageSize: size,
          total: orders.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES,
          showSizeChanger: true,
          showTotal: (total) => `共${total}个订单`,
          onChange: (p, s) => {
            setPage(s === size ? p - 1 : 0);
            setSize(s);
          },
        }}
      />
    </Flex>
  );
}
