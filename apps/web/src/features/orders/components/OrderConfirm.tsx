import type { OrderLocation } from '@portal/contract/api';
import { Alert, Button, Card, Descriptions, Flex, Result, Skeleton, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { errorMessage, isApiError } from '../../../lib/http.ts';
import { MSG } from '@portal/contract/messages';
import { addressText, locationOfCustomer, useDefaultAddress } from '../../address/index.ts';
import type { BatchDraft } from '../../submit/index.ts';
import type { PlacedBatch } from '../api/place-batch.ts';
import { useQuote, type QuoteLine } from '../api/quote.ts';
import { locationOfWork, quoteBodyOf, type ConfirmedQuote } from '../lib/bodies.ts';
import { moneyText } from '../lib/money.ts';

interface ConfirmRow {
  key: string;
  index: number;
  articleName: string;
  quantity: number;
  location: OrderLocation | undefined;
  line: QuoteLine | undefined;
  /** 人工调色 chosen on the batch page: said under the product's details, as the job ticket says it. */
  manualToning: boolean;
}

const PAGE_SIZE = 50;

export const locationText = (l: OrderLocation | undefined | null): string =>
  l ? [l.contact, l.phone, addressText(l)].filter(Boolean).join('，') : '—';

const skuLines = (sku: string | undefined) =>
  (sku ?? '')
    .split(/[;；]/)
    .map((s) => s.trim())
    .filter(Boolean);

export interface OrderConfirmProps {
  draft: BatchDraft;
  placing: boolean;
  placeError: unknown;
  /** 提交订单 with the quote the customer sees (the server refuses the order if its total or a line's amount is another now). */
  onPlace: (confirmed: ConfirmedQuote) => void;
  onBack: () => void;
}

/**
 * /payment1 before the order (../shared/spec/decisions.md §7): each work of the draft with the server's quote (product,
 * SKU, pages, unit and line price, and the reason it cannot be ordered, in red), the address, the
 * totals, and 提交订单.
 */
export function OrderConfirm({ draft, placing, placeError, onPlace, onBack }: OrderConfirmProps) {
  const body = useMemo(() => quoteBodyOf(draft), [draft]);
  const quote = useQuote(draft.idempotencyKey, body.works);
  // A price changed since the quote: the server said so and placed nothing; the page shows the new prices.
  const { refetch } = quote;
  useEffect(() => {
    if (isApiError(placeError) && (placeError.body as { code?: unknown } | undefined)?.code === 'price-changed') void refetch();
  }, [placeError, refetch]);
  const partial = draft.deliveryMethod === 'Partial';
  // A Unified batch without an address of its own goes to the hub's default address: shown, or said to be missing.
  const byDefault = !partial && !draft.location;
  const defaultAddress = useDefaultAddress(draft.customerHubId, byDefault);
  const noAddress = byDefault && defaultAddress.isSuccess && defaultAddress.data === null;

  const rows = useMemo<ConfirmRow[]>(() => {
    const lines = new Map((quote.data?.lines ?? []).map((l) => [l.uuid, l]));
    return draft.fileList.map((r, index) => ({
      key: r.uuid,
      index,
      articleName: r.articleName,
      quantity: r.quantity,
      location: locationOfWork(draft, index),
      line: lines.get(r.uuid),
      manualToning: r.toning === 'Manual',
    }));
  }, [draft, quote.data]);

  const problems = (quote.data?.lines ?? []).filter((l) => l.problem);
  const countsExtraPages = (quote.data?.lines ?? []).some((l) => l.priceBasis === 'copy');
  const copies = draft.fileList.reduce((s, r) => s + r.quantity, 0);
  const pages = (quote.data?.lines ?? []).reduce((s, l) => s + l.quantity * l.pageCount, 0);

  const columns = useMemo<TableColumnsType<ConfirmRow>>(() => {
    const cols: TableColumnsType<ConfirmRow> = [
      {
        title: '作品名称',
        key: 'articleName',
        width: 200,
        render: (_: unknown, r) => (
          <Flex vertical gap={2}>
            <Typography.Text>{r.articleName}</Typography.Text>
            {r.line?.problem && (
              <Typography.Text type="danger" data-testid="quote-problem">
                {r.line.problem}
              </Typography.Text>
            )}
          </Flex>
        ),
      },
      { title: '产品名称', key: 'productName', width: 150, render: (_: unknown, r) => r.line?.productName || '—' },
      {
        title: '产品详情',
        key: 'sku',
        width: 150,
        render: (_: unknown, r) => (
          <Flex vertical gap={0}>
            {skuLines(r.line?.sku).map((s) => (
              <Typography.Text key={s} style={{ fontSize: 12 }}>
                {s}
              </Typography.Text>
            ))}
            {r.manualToning && (
              <Typography.Text style={{ fontSize: 12 }} data-testid="manual-toning">
                人工调色
              </Typography.Text>
            )}
          </Flex>
        ),
      },
      { title: '订购数量', key: 'quantity', width: 90, align: 'right', render: (_: unknown, r) => r.line?.quantity ?? r.quantity },
      { title: '页数', key: 'pageCount', width: 70, align: 'right', render: (_: unknown, r) => r.line?.pageCount ?? '—' },
    ];
    // 加页数 only for products whose price counts extra pages (per copy).
    if (countsExtraPages) {
      cols.push({
        title: '加页数',
        key: 'addPageNum',
        width: 80,
        align: 'right',
        render: (_: unknown, r) => (r.line?.priceBasis === 'copy' ? r.line.addPageNum : '—'),
      });
    }
    if (partial) {
      cols.push({
        title: '收货地址',
        key: 'location',
        width: 240,
        render: (_: unknown, r) => <Typography.Text style={{ fontSize: 12 }}>{locationText(r.location)}</Typography.Text>,
      });
    }
    cols.push(
      { title: '单价', key: 'unitPrice', width: 100, align: 'right', render: (_: unknown, r) => (r.line ? moneyText(r.line.unitPrice) : '—') },
      {
        title: '计价',
        key: 'basis',
        width: 200,
        render: (_: unknown, r) =>
          r.line?.pricing ? (
            <Typography.Text style={{ fontSize: 12, whiteSpace: 'nowrap' }} data-testid="price-basis">
              {r.line.pricing.text}
            </Typography.Text>
          ) : (
            '—'
          ),
      },
      {
        title: '金额',
        key: 'amount',
        width: 110,
        align: 'right',
        // Always in view: on a 1280 px screen it was off the table's edge (LAN walk, 2026-11-30); with an address
        // per work the table is wider than such a screen and the other columns scroll under it.
        fixed: 'right',
        render: (_: unknown, r) => (r.line ? <Typography.Text strong>{moneyText(r.line.amount)}</Typography.Text> : '—'),
      },
    );
    return cols;
  }, [partial, countsExtraPages]);

  return (
    <Flex vertical gap={16}>
      <Card size="small" title="配送信息">
        <Descriptions size="small" column={1}>
          <Descriptions.Item label="配送方式">{partial ? '分别收货（每个作品单独填写收货地址）' : '统一收货'}</Descriptions.Item>
          {!partial && (
            <Descriptions.Item label="收货地址">
              {draft.location ? locationText(draft.location) : defaultAddress.data ? `${locationText(locationOfCustomer(defaultAddress.data))}（默认地址）` : noAddress ? '—' : '…'}
            </Descriptions.Item>
          )}
        </Descriptions>
      </Card>
      <Card size="small" title={`作品清单（${draft.fileList.length}个）`} styles={{ body: { padding: 0 } }}>
        {quote.isError && (
          <Alert type="error" showIcon style={{ margin: 12 }} title="报价失败" description={errorMessage(quote.error)} />
        )}
        {quote.isPending ? (
          <div style={{ padding: 16 }}>
            <Skeleton active paragraph={{ rows: 4 }} />
          </div>
        ) : (
          <Table<ConfirmRow>
            size="small"
            rowKey="key"
            columns={columns}
            dataSource={rows}
            scroll={{ x: 'max-content' }}
            pagination={rows.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, showSizeChanger: false } : false}
          />
        )}
      </Card>
      <Card size="small">
        <Flex align="center" justify="space-between" wrap gap={16}>
          <Space size={32} role="group" aria-label="合计">
            <span>
              <Typography.Text type="secondary">作品数</Typography.Text> <Typography.Text strong>{draft.fileList.length}</Typography.Text>
            </span>
            <span>
              <Typography.Text type="secondary">总份数</Typography.Text> <Typography.Text strong>{copies}</Typography.Text>
            </span>
            <span>
              <Typography.Text type="secondary">总页数</Typography.Text> <Typography.Text strong>{quote.data ? pages : '—'}</Typography.Text>
            </span>
            <span>
              <Typography.Text type="secondary">合计金额</Typography.Text>{' '}
              <Typography.Text strong style={{ fontSize: 20, color: '#cf1322' }} data-testid="total-amount">
                {quote.data ? moneyText(quote.data.totalAmount) : '—'}
              </Typography.Text>
            </span>
          </Space>
          <Space>
            <Button onClick={onBack} disabled={placing}>
              返回修改
            </Button>
            <Button type="primary" loading={placing} disabled={!quote.isSuccess || quote.isFetching || problems.length > 0 || Boolean(quote.data?.problem) || noAddress} onClick={() => quote.data && onPlace(quote.data)}>
              提交订单
            </Button>
          </Space>
        </Flex>
        {problems.length > 0 && (
          <Alert
            style={{ marginTop: 12 }}
            type="warning"
            showIcon
            title={`${problems.length}个作品暂时不能下单，请返回修改`}
            description={problems[0]?.problem}
          />
        )}
        {noAddress && <Alert style={{ marginTop: 12 }} type="warning" showIcon title={`${MSG.noDefaultAddress}，请联系印刷厂设置收货地址`} data-testid="no-default-address" />}
        {quote.data?.problem && <Alert style={{ marginTop: 12 }} type="warning" showIcon title={quote.data.problem} data-testid="quote-batch-problem" />}
        {placeError !== null && placeError !== undefined && (
          <Alert style={{ marginTop: 12 }} type="error" showIcon title="下单失败" description={errorMessage(placeError)} data-testid="place-error" />
        )}
      </Card>
    </Flex>
  );
}

export interface OrderPlacedProps {
  placed: PlacedBatch;
}

/** After 提交订单: the order numbers, the total, and the way to /orders. */
export function OrderPlaced({ placed }: OrderPlacedProps) {
  const columns: TableColumnsType<PlacedBatch['orders'][number]> = [
    { title: '订单号', dataIndex: 'salesOrderNumber', key: 'salesOrderNumber' },
    { title: '作品名称', dataIndex: 'articleName', key: 'articleName' },
    { title: '订购数量', dataIndex: 'quantity', key: 'quantity', align: 'right' },
    { title: '计价', dataIndex: 'basisText', key: 'basisText', render: (v: string | null | undefined) => v ?? '—' },
    { title: '金额', dataIndex: 'amount', key: 'amount', align: 'right', render: (v: number) => moneyText(v) },
  ];
  return (
    <Card>
      <Result
        status="success"
        title="下单成功"
        subTitle={`共${placed.orders.length}个订单，合计${moneyText(placed.totalAmount)}`}
        extra={
          <Space size={24}>
            <Link to="/orders">查看我的订单</Link>
            <Link to="/batch-upload">继续上传下单</Link>
          </Space>
        }
      />
      <Table
        size="small"
        rowKey="salesOrderNumber"
        columns={columns}
        dataSource={placed.orders}
        pagination={placed.orders.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, showSizeChanger: false } : false}
      />
    </Card>
  );
}
