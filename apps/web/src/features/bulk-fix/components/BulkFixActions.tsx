import { FIX_LABELS, FixKind } from '@portal/contract/bulk-fix';
import { Button, Space } from 'antd';
import { useCallback, useMemo } from 'react';
import { shallowEqual } from '../../../lib/external-store.ts';
import { rowByUuid, useWorks, type WorkRow, type WorksState } from '../../batch/index.ts';
import { openBulkFix } from '../dialog.ts';
import { targetsOf } from '../lib/targets.ts';

/**
 * The fixes for a list of files (a triage group): one button per fix that applies to any of them
 * (裁切填充, 留白适配, 旋转, 批量确认使用, 删除); a click opens 批量修复 with that fix chosen for every file
 * it applies to, to look at its effect and apply it. `onDone` runs after fixes or their undo.
 */
export function BulkFixActions({ files, onDone, size = 'small', without = [] }: {
  files: ReadonlyArray<{ workUuid: string; filePath: string }>;
  onDone?: () => void;
  size?: 'small' | 'middle';
  /** Fixes not to offer here (the triage has its own 删除, of whole works). */
  without?: readonly FixKind[];
}) {
  // Only the rows of these files' works: a change to another row of the batch does not render this again.
  const works = useMemo(() => [...new Set(files.map((f) => f.workUuid))], [files]);
  const select = useCallback((s: WorksState) => works.map((u) => rowByUuid(s, u)).filter((r): r is WorkRow => r !== undefined), [works]);
  const rows = useWorks(select, shallowEqual);
  const targets = useMemo(() => {
    const wanted = new Set(files.map((f) => `${f.workUuid}\n${f.filePath}`));
    return targetsOf(rows).filter((t) => wanted.has(`${t.workUuid}\n${t.filePath}`));
  }, [files, rows]);
  const kinds = FixKind.options.filter((k) => !without.includes(k) && targets.some((t) => t.kinds.includes(k)));
  if (kinds.length === 0) return null;
  return (
    <Space size={4} wrap>
      {kinds.map((k) => (
        <Button key={k} size={size} danger={k === 'delete'} onClick={() => openBulkFix(targets, { kind: k, onDone })}>
          {FIX_LABELS[k]}
        </Button>
      ))}
    </Space>
  );
}
