import { beforeEach, describe, expect, it } from 'vitest';
import { createCheckEntries, removableIds, selectHasPendingEntries, selectHasProblems, type CheckEntry } from './check-entries.ts';

const { addCheckEntries, checkEntriesStore, onCheckEntriesRemoved, removeCheckEntries, updateCheckEntry } = createCheckEntries();

const entry = (id: string, status: CheckEntry['status']) => ({ id, articleName: id, fileName: `${id}.jpg`, filePath: `upload/b/${id}.jpg`, status });
const state = () => checkEntriesStore.getState();

describe('the check entries of the upload list', () => {
  beforeEach(() => removeCheckEntries(state().ids));

  it('adds at the end, replaces an entry of the same id in place, and patches one', () => {
    addCheckEntries([entry('a', 'start'), entry('b', 'start')]);
    addCheckEntries([{ ...entry('a', 'failure'), message: '上传失败，请重试！' }]);
    expect(state().ids).toEqual(['a', 'b']);
    expect(state().byId.a).toMatchObject({ status: 'failure', message: '上传失败，请重试！' });
    updateCheckEntry('b', { status: 'success', phase: undefined });
    expect(state().byId.b?.status).toBe('success');
    updateCheckEntry('nobody', { status: 'error' });
    expect(state().ids).toEqual(['a', 'b']);
  });

  it('lets the customer remove every entry but one still in start, and tells the listeners what left', () => {
    addCheckEntries([entry('s', 'start'), entry('e', 'error'), entry('d', 'dpiAbnormal'), entry('ok', 'success')]);
    expect(removableIds(state())).toEqual(['e', 'd', 'ok']);
    expect(selectHasProblems(state())).toBe(true);
    expect(selectHasPendingEntries(state())).toBe(true);
    const heard: string[][] = [];
    const stop = onCheckEntriesRemoved((removed) => heard.push(removed.map((r) => r.id)));
    expect(removeCheckEntries(['e', 'd', 'missing']).map((r) => r.id)).toEqual(['e', 'd']);
    stop();
    removeCheckEntries(['s']);
    expect(heard).toEqual([['e', 'd']]);
    expect(state().ids).toEqual(['ok']);
    // A success does not hold up the order.
    expect(selectHasProblems(state())).toBe(false);
    expect(selectHasPendingEntries(state())).toBe(false);
  });
});
