import { describe, expect, it } from 'vitest';
import { componentPaper, csvCell, csvText, NAME_MAX_BYTES, orderFolder, safeName, shopDay, uniquePaths, zipTimeOf } from './production.ts';

describe('zip entry names', () => {
  it('replaces what Windows refuses and drops trailing dots and spaces', () => {
    expect(safeName('a<b>c:d"e/f\\g|h?i*j', 100)).toBe('a_b_c_d_e_f_g_h_i_j');
    expect(safeName('报告. . ', 100)).toBe('报告');
    expect(safeName('CON.txt', 100)).toBe('_CON.txt');
    expect(safeName('..', 100)).toBe('_');
    expect(safeName('tab\there', 100)).toBe('tab_here');
  });

  it('keeps no character that makes a name read as another: bidi overrides, zero-width, C1 controls, line separators (API probe)', () => {
    expect(safeName('\u202egpj.exe.jpg', 100)).toBe('_gpj.exe.jpg');
    expect(safeName('\u0085\u2028.jpg', 100)).toBe('__.jpg');
    expect(safeName('照\u200b片\ufeff.jpg', 100)).toBe('照_片_.jpg');
  });

  it('cuts a long Chinese name by characters, keeping the extension and whole surrogate pairs', () => {
    const long = `${'毕业纪念相册'.repeat(30)}.jpg`;
    // 60 characters, 180 bytes: the characters are the limit here, the bytes below.
    const cut = safeName(long, 60);
    expect(Array.from(cut)).toHaveLength(60);
    expect(cut.endsWith('.jpg')).toBe(true);
    const emoji = safeName('😀'.repeat(60), 50);
    expect(Array.from(emoji)).toHaveLength(50);
    expect(emoji).toBe('😀'.repeat(50));
  });

  it('cuts between what a reader sees as one character: a flag, a skin tone or a letter and its accent is kept whole or left out (they were split)', () => {
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    const flag = '🇨🇳'; // two regional indicators, 8 bytes: cut between them, a lone one shows as a letter C
    const flags = safeName(`${flag.repeat(40)}.jpg`, 250);
    expect(flags).toBe(`${flag.repeat(29)}.jpg`);
    expect(bytes(flags)).toBeLessThanOrEqual(NAME_MAX_BYTES);
    expect(safeName('👍🏽'.repeat(40), 250)).toBe('👍🏽'.repeat(30)); // a thumb and its skin tone
    // By characters too: 7 code points leave room for three g̃ (g and a combining tilde, no precomposed form), not a fourth g.
    expect(safeName(`${'g̃'.repeat(5)}.jpg`, 11)).toBe(`${'g̃'.repeat(3)}.jpg`);
    const names = uniquePaths();
    names(`x${flag.repeat(29)}.jpg`);
    expect(names(`x${flag.repeat(29)}.jpg`)).toBe(`x${flag.repeat(28)} (2).jpg`);
  });

  it('cuts a name to what Linux takes in bytes, between characters, keeping the extension (100 Chinese characters are 292 bytes: unzip failed, operator walk)', () => {
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    const chinese = safeName(`${'毕业纪念相册'.repeat(42)}.jpg`, 100);
    expect(chinese).toBe(`${'毕业纪念相册'.repeat(13)}.jpg`);
    expect(bytes(chinese)).toBe(NAME_MAX_BYTES - 2);
    // 4-byte characters (two UTF-16 units each) are kept whole, never half of one; a lone surrogate is no character.
    const emoji = safeName(`${'🎓'.repeat(100)}.png`, 100);
    expect(emoji).toBe(`${'🎓'.repeat(59)}.png`);
    expect(emoji.length).toBeLessThanOrEqual(NAME_MAX_BYTES);
    expect(safeName('照片\ud83c.jpg', 100)).toBe('照片_.jpg');
    expect(safeName('\udf93照片', 100)).toBe('_照片');
    // 1-, 2- and 3-byte characters mixed: the longest start that fits.
    const mixed = safeName(`${'aé中'.repeat(60)}.pdf`, 200);
    expect(bytes(mixed)).toBeLessThanOrEqual(NAME_MAX_BYTES);
    expect(bytes(mixed)).toBeGreaterThan(NAME_MAX_BYTES - 3);
    expect(`${'aé中'.repeat(60)}.pdf`.startsWith(mixed.slice(0, -4))).toBe(true);
    // A folder cut by characters alone: <SO>_ and 59 characters of 4 bytes, 257 bytes.
    const folder = orderFolder('SO202612010000020002', '🎓'.repeat(100));
    expect(bytes(folder)).toBeLessThanOrEqual(NAME_MAX_BYTES);
    expect(folder).toBe(`SO202612010000020002_${'🎓'.repeat(54)}`);
  });

  it('tells apart two long names that meet once cut, each still within the bytes', () => {
    const unique = uniquePaths();
    const stem = '高三七班毕业合影第一排从左至右'.repeat(10);
    const [a, b, c] = ['甲', '乙', '丙'].map((end) => unique(`W/照片/${safeName(`${stem}${end}.jpg`, 100)}`).split('/')[2]!);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(a).toBe(`${Array.from(stem).slice(0, 78).join('')}.jpg`);
    expect(b).toBe(`${Array.from(stem).slice(0, 77).join('')} (2).jpg`);
    expect(c).toBe(`${Array.from(stem).slice(0, 77).join('')} (3).jpg`);
    for (const name of [a, b, c]) expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(NAME_MAX_BYTES);
    // A dot far from the end starts no extension: the suffix goes at the end, and the name stays within the bytes.
    const dotted = safeName(`照.${'片'.repeat(120)}`, 100);
    expect(unique(`W/${dotted}`)).toBe(`W/照.${'片'.repeat(78)}`);
    expect(unique(`W/${dotted}`)).toBe(`W/照.${'片'.repeat(77)} (2)`);
  });

  it('makes a folder of the SO number and the work', () => {
    expect(orderFolder('SO1', '毕业/相册')).toBe('SO1_毕业_相册');
  });

  it('hands out each path once, ignoring case', () => {
    const unique = uniquePaths();
    expect(unique('a/封面/p1.jpg')).toBe('a/封面/p1.jpg');
    expect(unique('a/封面/P1.JPG')).toBe('a/封面/P1 (2).JPG');
    expect(unique('a/封面/p1.jpg')).toBe('a/封面/p1 (3).jpg');
    expect(unique('a/封面/readme')).toBe('a/封面/readme');
    expect(unique('a/封面/readme')).toBe('a/封面/readme (2)');
  });
});

describe('manifest CSV', () => {
  it('quotes what needs it and defuses formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell(12)).toBe('12');
  });

  it('starts with a BOM and ends lines with CRLF', () => {
    expect(csvText(['SO', '作品'], [['SO1', '相册']])).toBe('\uFEFFSO,作品\r\nSO1,相册\r\n');
  });
});

describe('shop day', () => {
  it('is the day in China Standard Time', () => {
    // A zip entry's wall-clock time is the shop's (UTC+8) whatever the server's zone: the zip writer reads
    // the local hours, which here give 17:09 for an order placed at 09:09 UTC.
    const filed = zipTimeOf(new Date('2026-11-29T09:09:00Z'));
    expect([filed.getFullYear(), filed.getMonth() + 1, filed.getDate(), filed.getHours(), filed.getMinutes()]).toEqual([2026, 11, 29, 17, 9]);
    expect(shopDay('2026-03-01')).toEqual({ from: new Date('2026-02-28T16:00:00Z'), to: new Date('2026-03-01T16:00:00Z') });
    expect(shopDay('2026-02-31')).toBeNull();
  });
});

describe('a component\'s paper on the job ticket', () => {
  it.each([
    ['a board chosen by its option (板材)', '画面', ['画面'], '板材:3mm PVC板', ['5mm KT板', '3mm PVC板'], '3mm PVC板'],
    ['a poster\'s material', '画面', ['画面'], '材质:157g铜版纸', ['157g铜版纸', 'PP背胶', '防水相纸'], '157g铜版纸'],
    ['the inner pages\' paper named for them', '内页', ['封面', '内页'], '装订方式:骑马钉;内页纸张:157g铜版纸;封面工艺:覆膜', ['157g铜版纸', '128g哑粉纸'], '157g铜版纸'],
    ['the cover, which the SKU does not choose: what it is made of', '封面', ['封面', '内页'], '装订方式:骑马钉;内页纸张:157g铜版纸;封面工艺:覆膜', ['250g铜版纸'], '250g铜版纸'],
    ['a card side, from the SKU\'s 纸张', '正面', ['正面', '背面'], '印刷面:双面；纸张：350g珠光纸', ['300g铜版纸', '350g珠光纸'], '350g珠光纸'],
    ['a photo\'s 相纸, which is none of the component\'s papers by name', '照片', ['照片'], '相纸:光面;边框:无边框', ['富士银盐相纸'], '光面'],
    ['a SKU that chooses nothing of it', '画面', ['画面'], '尺寸:大', ['5mm KT板', '3mm PVC板'], '5mm KT板、3mm PVC板'],
  ])('%s', (_what, name, names, sku, papers, expected) => {
    expect(componentPaper(name, names, sku, papers)).toBe(expected);
  });
});
