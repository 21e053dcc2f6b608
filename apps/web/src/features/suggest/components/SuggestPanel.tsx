import type { ProductSuggestion } from '@portal/contract/suggest';
import { MSG } from '@portal/contract/messages';
import { App, Button, Card, List, Space, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useAccount } from '../../auth/index.ts';
import { shallowEqual, type Store } from '../../../lib/external-store.ts';
import { useBatch, usePreflight, useWorks, type WorkRow, type WorksState } from '../../batch/index.ts';
import { checkFlowOf } from '../../file-check/index.ts';
import { useSuggestions } from '../api/suggest-products.ts';
import { SUGGEST_MSG, groupsToApply, suggestionLabel, type SkuGroup } from '../lib/apply.ts';

/** A work without a product: parsed, never checked against a SKU. */
const isUnmatched = (r: WorkRow) => r.state === 'unmatch' && r.productId == null;
const unmatchedUuids = (s: WorksState) => s.rows.filter(isUnmatched).map((r) => r.uuid).sort();

const SETTLE_MS = 500;
/**
 * The panel's body, px: two lines of groups (more scroll). The panel stands, at this height, as long as the
 * order table has rows: it came SETTLE_MS after a pick's rows, above the table, and grew and left as the
 * suggestions changed, moving the rows under the customer's pointer (a click on a row's check box landed
 * on another place: a lost check, clean-clone CI 2026-11-30). Now nothing it shows moves the table.
 */
const BODY_HEIGHT = 78;
const hasRows = (s: WorksState) => s.rows.length > 0;
const hasUnmatched = (s: WorksState) => s.rows.some(isUnmatched);
const hasPreflightRows = (s: { keys: readonly string[] }) => s.keys.length > 0;
/**
 * The works without a product, once the batch has left them unchanged for SETTLE_MS. A drop of 300
 * folders lands parsed works five times a second for seconds: the panel drew, and asked the server, each
 * time (bench batch-triage: 82 renders of the panel in a drop), for suggestions nobody reads then.
 */
function useSettledUnmatched(worksStore: Store<WorksState>): readonly string[] {
  const [uuids, setUuids] = useState<readonly string[]>(() => unmatchedUuids(worksStore.getState()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      const next = unmatchedUuids(worksStore.getState());
      setUuids((previous) => (shallowEqual(previous, next) ? previous : next));
    };
    const unsubscribe = worksStore.subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(update, SETTLE_MS);
    });
    update();
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [worksStore]);
  return uuids;
}

/** The works whose top suggestion is one SKU, with what their files need of it. */
function GroupLine({ group, names, onSelect }: { group: SuggestionGroup; names: () => readonly string[]; onSelect: () => void }) {
  const { suggestion: top, uuids, exact, swapped, resolutionWarnings } = group;
  return (
    <List.Item data-testid="suggest-group" actions={[<Button key="select" type="link" size="small" onClick={onSelect}>勾选这些作品</Button>]}>
      <Space size={4} wrap>
        <span>{suggestionLabel(top)}</span>
        <Tag color={exact ? 'green' : 'gold'}>{exact ? '尺寸吻合' : '误差范围内'}</Tag>
        {swapped > 0 && <Tag>横竖互换{swapped}个</Tag>}
        {resolutionWarnings > 0 && <Tag color="orange">分辨率不足{resolutionWarnings}个</Tag>}
        <WorkCount count={uuids.length} names={names} />
      </Space>
    </List.Item>
  );
}

const NAMES_SHOWN = 10;
function WorkCount({ count, names }: { count: number; names: () => readonly string[] }) {
  const title = () => {
    const list = names();
    return list.slice(0, NAMES_SHOWN).join('、') + (list.length > NAMES_SHOWN ? ` 等${list.length}个` : '');
  };
  return (
    <Tooltip title={title}>
      <Typography.Text type="secondary">· {count}个作品</Typography.Text>
    </Tooltip>
  );
}

interface SuggestionGroup extends SkuGroup {
  exact: boolean;
  swapped: number;
  resolutionWarnings: number;
}

/** The works without a product, grouped by their top suggestion, largest group first. */
function groupSuggestions(uuids: readonly string[], suggestions: ReadonlyMap<string, readonly ProductSuggestion[]>): { groups: SuggestionGroup[]; without: string[] } {
  const { groups, without } = groupsToApply(uuids, suggestions, new Set(uuids));
  const tops = (g: SkuGroup) => g.uuids.map((u) => suggestions.get(u)?.[0]).filter((x) => x !== undefined);
  const sum = (list: ProductSuggestion[], pick: (x: ProductSuggestion) => number) => list.reduce((n, x) => n + pick(x), 0);
  return {
    groups: groups
      .map((g) => {
        const list = tops(g);
        return { ...g, exact: list.every((x) => x.fit === 'exact'), swapped: sum(list, (x) => x.swapped), resolutionWarnings: sum(list, (x) => x.resolutionWarnings) };
      })
      .sort((a, b) => b.uuids.length - a.uuids.length),
    without,
  };
}

/**
 * 推荐产品 (issue #20 item 3): for the works without a product, the product and SKU their files fit as
 * they are, best first; 按推荐匹配 checks the checked rows against their top suggestion (the check flow
 * of 选择产品). Shown, at one height, while the order table has rows (BODY_HEIGHT).
 */
export function SuggestPanel() {
  const { message } = App.useApp();
  const batch = useBatch();
  const customerHubId = useAccount().data?.customerHubId;
  const uuids = useSettledUnmatched(batch.worksStore);
  const suggestions = useSuggestions(uuids);
  // The same stores as the order table's rows: the panel comes in the frame the table's first row comes in.
  const rows = useWorks(hasRows);
  const preflightRows = usePreflight(hasPreflightRows);
  const unmatchedNow = useWorks(hasUnmatched);

  if (!rows && !preflightRows) return null;

  const apply = () => {
    const { rows: all, selectedKeys } = batch.worksStore.getState();
    const present = new Set(all.map((r) => r.uuid));
    const checked = selectedKeys.filter((k) => present.has(k));
    if (checked.length === 0) {
      void message.warning(SUGGEST_MSG.nothingChecked);
      return;
    }
    if (!suggestions.data || customerHubId === undefined) return;
    const { groups, without, chosen } = groupsToApply(checked, suggestions.data, new Set(uuids));
    const notes = [
      chosen.length > 0 ? SUGGEST_MSG.chosenLeft(chosen.length) : '',
      without.length > 0 ? SUGGEST_MSG.withoutSuggestion(without.length) : '',
    ].filter(Boolean);
    if (notes.length > 0) void message.warning(notes.join('；'));
    for (const g of groups) {
      const s = g.suggestion;
      void checkFlowOf(batch).checkWorks(g.uuids, {
        productId: s.productId, productName: s.productName, propertyConfigId: s.propertyConfigId, sku: s.sku, toning: s.toning, customToning: s.customToning,
      }, customerHubId);
    }
  };

  const grouped = suggestions.data && uuids.length > 0 ? groupSuggestions(uuids, suggestions.data) : undefined;
  const note = (text: string) => <Typography.Text type="secondary" style={{ padding: '8px 0', display: 'block' }}>{text}</Typography.Text>;
  // Read when a tooltip opens: the names as they are then.
  const namesOf = (list: readonly string[]) => () => {
    const chosen = new Set(list);
    return batch.worksStore.getState().rows.filter((r) => chosen.has(r.uuid)).map((r) => r.articleName);
  };
  // Adds to the rows checked already: three groups' 勾选这些作品 then 按推荐匹配 matched only the last group (LAN walk).
  const select = (list: readonly string[]) => batch.setSelectedWorks([...new Set([...batch.worksStore.getState().selectedKeys, ...list])]);

  // One line per suggested SKU, not per work: the works are the order table's rows, and a list of them here
  // pushed 订单列表 below the fold (the LAN check of 2026-11-29, 40 folders).
  return (
    <Card
      size="small"
      // Its body shows two lines: more are said in the title (a LAN walk found 3 of 5 groups hidden below, no scrollbar drawn).
      title={SUGGEST_MSG.title(grouped ? grouped.groups.length + (grouped.without.length > 0 ? 1 : 0) : 0)}
      extra={
        <Button onClick={apply} disabled={!unmatchedNow} loading={unmatchedNow && suggestions.isFetching && !suggestions.data}>
          按推荐匹配
        </Button>
      }
      styles={{ body: { padding: '0 12px', height: BODY_HEIGHT, overflowY: 'auto' } }}
    >
      {!rows ? (
        note(SUGGEST_MSG.afterParse)
      ) : !unmatchedNow ? (
        note(SUGGEST_MSG.allChosen)
      ) : !grouped ? (
        note(SUGGEST_MSG.computing)
      ) : (
        <List size="small" split>
          {grouped.groups.map((g) => (
            <GroupLine key={g.suggestion.propertyConfigId} group={g} names={namesOf(g.uuids)} onSelect={() => select(g.uuids)} />
          ))}
          {grouped.without.length > 0 && (
            <List.Item data-testid="suggest-group" actions={[<Button key="select" type="link" size="small" onClick={() => select(grouped.without)}>勾选这些作品</Button>]}>
              <Space size={4} wrap>
                <Typography.Text type="secondary">{SUGGEST_MSG.nothingFits}</Typography.Text>
                <WorkCount count={grouped.without.length} names={namesOf(grouped.without)} />
              </Space>
            </List.Item>
          )}
        </List>
      )}
      {suggestions.isError && <Typography.Text type="danger" style={{ padding: '8px 0', display: 'block' }}>{MSG.networkError}</Typography.Text>}
    </Card>
  );
}
