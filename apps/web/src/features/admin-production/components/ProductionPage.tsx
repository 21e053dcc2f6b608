import { useState } from 'react';
import { Button, Card, Input, InputNumber, List, Space, Typography } from 'antd';
import type { ProductionLinkAnswer } from '@portal/contract/admin-production';
import { useProductionDownload } from '../api/production-link.ts';

const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

/**
 * Files for the press: the zip of one order, one batch, or the day's 待处理 orders. The server answers a
 * signed link (a download sends no token), which the browser then downloads as it streams.
 */
export function ProductionPage() {
  const [so, setSo] = useState('');
  const [batch, setBatch] = useState<number | null>(null);
  const [day, setDay] = useState(today());
  const [last, setLast] = useState<ProductionLinkAnswer | null>(null);
  const { download, pending } = useProductionDownload(setLast);

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card title="生产文件下载">
        <Typography.Paragraph type="secondary">
          压缩包内每个订单一个文件夹（订单号_作品名/组件/文件），附生产单（PDF，含订单号二维码），并附 manifest.csv 文件清单（含 sha256）。
        </Typography.Paragraph>
        <Space direction="vertical" size="middle">
          <Space>
            <span style={{ width: 90, display: 'inline-block' }}>按订单号</span>
            <Input value={so} onChange={(e) => setSo(e.target.value)} placeholder="SO…" style={{ width: 260 }} />
            <Button type="primary" disabled={!so.trim()} loading={pending} onClick={() => download({ salesOrderNumber: so.trim() })}>下载</Button>
          </Space>
          <Space>
            <span style={{ width: 90, display: 'inline-block' }}>按批次</span>
            <InputNumber min={1} value={batch} onChange={(v) => setBatch(v)} placeholder="批次号" style={{ width: 260 }} />
            <Button type="primary" disabled={!batch} loading={pending} onClick={() => batch && download({ batchId: batch })}>下载</Button>
          </Space>
          <Space>
            <span style={{ width: 90, display: 'inline-block' }}>当天待处理</span>
            <Input type="date" value={day} onChange={(e) => setDay(e.target.value)} style={{ width: 260 }} />
            <Button type="primary" disabled={!day} loading={pending} onClick={() => download({ day })}>下载</Button>
          </Space>
        </Space>
      </Card>
      {last && (
        <Card title={`${last.fileName}（${last.orders.length} 个订单）`}>
          <List size="small" dataSource={last.orders}
            renderItem={(o) => <List.Item>{o.salesOrderNumber}　{o.articleName}　{o.files} 个文件</List.Item>} />
        </Card>
      )}
    </Space>
  );
}
