import type { ProductSuggestion } from '@portal/contract/suggest';
import { MSG } from '@portal/contract/messages';
import { App, Button, Card, List, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { useAccount } from '../../auth/index.ts';
import { shallowEqual } from '../../../lib/external-store.ts';
import { useBatch, useWorks, type WorkRow, type WorksState } from '../../batch/index.ts';
import { checkFlowOf } from '../../file-check/index.ts';
import { useSuggestions } from '../api/suggest-products.ts';
import { groupsToApply, suggestionLabel } from '../lib/apply.ts';

/** A work without a product: parsed, never checked against a SKU. */
const isUnmatched = (r: WorkRow) => r.state === 'unmatch' && r.productId == null;
const selectUnmatched = (s: WorksState) => s.rows.filter(isUnmatched);

function SuggestionCell({ list }: { list: readonly ProductSuggestion[] | undefined }) {
  if (!list) return <Typography.Text type="secondary">计算中…</Typography.Text>;
  const top = list[0];
  if (!top) return <Typography.Text type="secondary">没有尺寸相符的产品</Typography.Text>;
  return (
    <Space size={4} wrap>
      <span>{suggestionLabel(top)}</span>
      <Tag color={top.fit === 'exact' ? 'green' : 'gold'}>{top.fit === 'exact' ? '尺寸吻合' : '误差范围内'}</Tag>
      {top.swapped > 0 && <Tag>横竖互换{top.swapped}个</Tag>}
      {top.resolutionWarnings > 0 && <Tag color="orange">分辨率不足{top.resolutionWarnings}个</Tag>}
      {list.length > 1 && (
        <Tooltip title={list.slice(1).map(suggestionLabel).join('；')}>
          <Typography.Text type="secondary">另有{list.length - 1}个产品</Typography.Text>
        </Tooltip>
      )}
    </Space>
  );
}

/**
 * 推荐产品 (issue #20 item 3): for the works without a product, the product and SKU their files fit as
 * they are, best first; 按推荐匹配 checks the checked rows against their top suggestion (the check flow
 * of 选择产品). Hidden while every work has a product.
 */
export function SuggestPanel() {
  const { message } = App.useApp();
  const batch = useBatch();
  const customerHubId = useAccount().data?.customerHubId;
  // Re-renders when the works without a product change, not on every change to a row.
  const unmatched = useWorks(selectUnmatched, shallowEqual);
  const uuids = useMemo(() => unmatched.map((r) => r.uuid).sort(), [unmatched]);
  const suggestions = useSuggestions(uuids);

  if (unmatched.length === 0) return null;

  const apply = () => {
    const { rows: all, selectedKeys } = batch.worksStore.getState();
    const present = new Set(all.map((r) => r.uuid));
    const checked = selectedKeys.filter((k) => present.has(k));
    if (checked.length === 0) {
      void message.warning(MSG.selectOrder);
      return;
    }
    if (!suggestions.data || customerHubId === undefined) return;
    const { groups, without } = groupsToApply(checked, suggestions.data);
    if (without.length > 0) void message.warning(`${without.length}个作品没有推荐产品，请用选择产品`);
    for (const g of groups) {
      const s = g.suggestion;
      void checkFlowOf(batch).checkWorks(g.uuids, {
        productId: s.productId, productName: s.productName, propertyConfigId: s.propertyConfigId, sku: s.sku, toning: s.toning, customToning: s.customToning,
      }, customerHubId);
    }
  };

  return (
    <Card
      size="small"
      title="推荐产品"
      extra={
        <Button onClick={apply} loading={suggestions.isFetching && !suggestions.data}>
          按推荐匹配
        </Button>
      }
      styles={{ body: { padding: 0 } }}
    >
      {/* A list, not a second table: the order table stays the page's only table of works. */}
      <List<WorkRow>
        size="small"
        rowKey="uuid"
        dataSource={unmatched}
        pagination={unmatched.length > 10 ? { pageSize: 10, size: 'small', align: 'end' } : false}
        renderItem={(r) => (
          <List.Item data-testid="suggest-item">
            <Typography.Text ellipsis style={{ width: 240, flex: 'none' }}>{r.articleName}</Typography.Text>
            <div style={{ flex: 1 }}><SuggestionCell list={suggestions.data?.get(r.uuid)} /></div>
          </List.Item>
        )}
      />
      {suggestions.isError && <Typography.Text type="danger" style={{ padding: 8, display: 'block' }}>{MSG.networkError}</Typography.Text>}
    </Card>
  );
}
