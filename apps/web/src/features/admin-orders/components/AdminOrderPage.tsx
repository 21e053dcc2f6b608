import type { AdminOrderDetail } from '@portal/contract/admin';
import { ORDER_STATUS_TEXT } from '@portal/contract/order-status';
import { Alert, Breadcrumb, Button, Card, Descriptions, Flex, Image, Result, Spin, Table, Tag, Timeline, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { Link, useLocation, useParams } from 'react-router';
import { errorMessage } from '../../../lib/http.ts';
import { useProductionDownload } from '../../admin-production/index.ts';
import { useAdminOrder } from '../api/orders.ts';
import { StatusActions, TrackingCorrection } from './StatusActions.tsx';
import { StatusTag, money } from './status.tsx';

type CheckRow = NonNullable<AdminOrderDetail['check']>['rows'][number];
const mm = (w: number | null, h: number | null) => (w === null || h === null ? '—' : `${w}×${h}mm`);
const time = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm');

function CheckTable({ check }: { check: NonNullable<AdminOrderDetail['check']> }) {
  return (
    <Table<CheckRow>
      size="small"
      rowKey={(r) => `${r.itemPath}#${r.page ?? 0}`}
      dataSource={check.rows}
      pagination={check.rows.length > 20 ? { pageSize: 20 } : false}
      columns={[
        { title: '文件', key: 'file', render: (_: unknown, r) => (r.page ? `${r.fileName} 第${r.page}页` : r.fileName) },
        { title: '部件', dataIndex: 'component', key: 'component', render: (v: string | null) => v ?? '未定义' },
        { title: '文件尺寸', key: 'size', render: (_: unknown, r) => mm(r.width, r.height) },
        { title: '标准尺寸', key: 'standard', render: (_: unknown, r) => mm(r.standardWidth, r.standardHeight) },
        { title: '分辨率', key: 'dpi', render: (_: unknown, r) => (r.dpi === null ? '—' : `${Math.round(r.dpi)}dpi${r.resolutionThreshold ? `（要求≥${r.resolutionThreshold}）` : ''}`) },
        { title: '结果', key: 'result', render: (_: unknown, r) => (
          !r.pass ? <Tag color="red">{r.reason ?? '不通过'}</Tag> : r.resolutionWarning ? <Tag color="orange">分辨率低</Tag> : <Tag color="green">通过</Tag>
        ) },
      ]}
    />
  );
}

/** One order as the shop needs it: files, the check it passed, the address, the price and where it is. */
export function AdminOrderPage() {
  const id = Number(useParams().id);
  const order = useAdminOrder(id);
  const production = useProductionDownload();
  // Back to the list as it was (its filters and page), when the order was opened from it.
  const list = `/admin/orders${(useLocation().state as { list?: string } | null)?.list ?? ''}`;
  if (order.isPending) return <Flex justify="center" style={{ padding: 48 }}><Spin /></Flex>;
  if (order.isError) return <Result status="warning" title={errorMessage(order.error)} extra={<Link to={list}>返回订单列表</Link>} />;
  const o = order.data;

  return (
    <Flex vertical gap={16}>
      <Breadcrumb items={[{ title: <Link to={list}>订单</Link> }, { title: o.salesOrderNumber }]} />
      <Flex align="center" gap={12} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>{o.salesOrderNumber}</Typography.Title>
        <StatusTag status={o.status} />
        <div style={{ flex: 1 }} />
        {(o.status === 'shipped' || o.status === 'completed') && <TrackingCorrection orderId={o.id} carrier={o.carrier} trackingNumber={o.trackingNumber} />}
        <StatusActions orderId={o.id} next={o.nextStatuses} />
      </Flex>
      <Card size="small" title="订单信息">
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} items={[
          // Cut to a line, whole on hover: a 100-character name squeezed 下单时间 into one character a line (LAN walk).
          { key: 'hub', label: '客户中心', children: <Typography.Text ellipsis title={o.hubName} style={{ maxWidth: 260 }}>{o.hubName}</Typography.Text> },
          { key: 'customer', label: '客户', children: o.customerName },
          { key: 'created', label: '下单时间', children: time(o.createdAt) },
          { key: 'batch', label: '批次号', children: <span data-testid="batch-id">{o.batchId}</span> },
          { key: 'article', label: '作品', children: o.articleName },
          { key: 'product', label: '产品', children: o.productName },
          { key: 'sku', label: 'SKU', children: o.sku },
          { key: 'qty', label: '数量', children: o.quantity },
          // 加页 only where the price counts it (per copy), as the customer's table shows it.
          { key: 'pages', label: '页数', children: o.addPageNum && (o.pricing === null || o.pricing.basis === 'copy') ? `${o.pageCount}（加${o.addPageNum}）` : o.pageCount },
          { key: 'toning', label: '调色', children: o.toning === 'Manual' ? `人工调色${o.customToning ? `：${o.customToning}` : ''}` : '不调色' },
          { key: 'amount', label: '金额', children: <Typography.Text strong>{money(o.amount)}</Typography.Text> },
          { key: 'basis', label: '计价', children: <span data-testid="price-basis">{o.basisText}</span> },
          { key: 'tracking', label: '快递', children: o.trackingNumber ? <span data-testid="tracking">{`${o.carrier ?? ''} ${o.trackingNumber}`}</span> : '—' },
        ]} />
      </Card>
      <Card size="small" title={o.deliveryMethod === 'Partial' ? '收货地址（按作品）' : '收货地址'}>
        {o.addresses.map((a, i) => (
          <Typography.Paragraph key={i} style={{ margin: 0 }}>
            {`${a.contact}，${a.phone}，${a.province}${a.city}${a.district}${a.address}${o.deliveryMethod === 'Partial' && a.quantity ? `（${a.quantity}份）` : ''}`}
          </Typography.Paragraph>
        ))}
      </Card>
      <Card size="small" title={`文件（${o.files.length}个）`} extra={(
        // The press's zip of this order (its files, manifest and 生产单): it was only on 生产文件, by typing the SO number (LAN walk).
        <Button size="small" icon={<DownloadOutlined />} loading={production.pending} onClick={() => production.download({ salesOrderNumber: o.salesOrderNumber })}>下载生产文件</Button>
      )}>
        <Image.PreviewGroup>
          <Flex wrap gap={12}>
            {o.files.map((f) => (
              <Flex key={f.filePath} vertical gap={4} style={{ width: 140 }}>
                <Image src={f.thumbnailUrl} alt={f.fileName} width={140} height={140} style={{ objectFit: 'contain', background: '#fafafa' }} />
                <Typography.Text ellipsis={{ tooltip: f.fileName }} style={{ fontSize: 12 }}>{f.fileName}</Typography.Text>
                <Flex gap={6} align="center">
                  {f.component && <Tag>{f.component}</Tag>}
                  <a href={f.downloadUrl} style={{ fontSize: 12 }}>下载</a>
                </Flex>
              </Flex>
            ))}
          </Flex>
        </Image.PreviewGroup>
      </Card>
      <Card size="small" title="文件检查">
        {o.check === null ? (
          <Typography.Text type="secondary">该订单下单时未保存检查结果</Typography.Text>
        ) : (
          <Flex vertical gap={12}>
            {o.check.warnings.length > 0 && (
              <Alert type="warning" showIcon title="客户已确认的警告" description={o.check.warnings.join('；')} />
            )}
            <Typography.Text type="secondary">{`共${o.check.pageCount}页，面积${o.check.fileArea}㎡`}</Typography.Text>
            <CheckTable check={o.check} />
          </Flex>
        )}
      </Card>
      <Card size="small" title="状态记录">
        <Timeline items={o.timeline.map((h) => ({
          children: (
            <Flex vertical gap={0}>
              <Typography.Text>{`${time(h.at)} ${h.from === h.to ? '更正快递信息' : `${h.from ? `${ORDER_STATUS_TEXT[h.from]} → ` : '下单 '}${h.toText}`}`}</Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {`${h.role === 'customer' ? '客户' : '操作员'} ${h.by}${h.trackingNumber ? `，${h.carrier ?? ''} ${h.trackingNumber}` : ''}${h.note ? `，备注：${h.note}` : ''}`}
              </Typography.Text>
            </Flex>
          ),
        }))} />
      </Card>
    </Flex>
  );
}
