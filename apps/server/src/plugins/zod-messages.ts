import type { z } from 'zod';

/** What a value sent for a field should have been, in a customer's words (zod's own name → ours). */
const KINDS: Record<string, string> = {
  int: '整数', number: '数字', string: '文字', boolean: 'true 或 false', array: '列表', object: '对象', date: '日期',
};
const shown = (v: unknown) => (typeof v === 'string' ? `"${v}"` : String(v));

/**
 * Plain Chinese for a refused field that its schema gives no words of its own: 必须是整数, 不能小于0,
 * 格式不正确. zod's zh-CN locale reads 无效输入：期望 int，实际接收 数字, names its regular expressions, and
 * says 期望 数字，实际接收 数字 of an infinite number (API probe, 2026-11-30). Undefined: the locale's text.
 */
export function plainIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return '缺少此项';
      if (issue.input === null) return '不能为空';
      if (typeof issue.input === 'number' && !Number.isFinite(issue.input)) return '必须是有限的数字';
      const kind = KINDS[issue.expected];
      return kind ? `必须是${kind}` : undefined;
    }
    case 'too_small': {
      const n = String(issue.minimum);
      if (issue.origin === 'string') return `至少${n}个字符`;
      if (issue.origin === 'array' || issue.origin === 'set') return `至少${n}项`;
      return issue.inclusive ? `不能小于${n}` : `必须大于${n}`;
    }
    case 'too_big': {
      const n = String(issue.maximum);
      if (issue.origin === 'string') return `不能超过${n}个字符`;
      if (issue.origin === 'array' || issue.origin === 'set') return `不能超过${n}项`;
      return issue.inclusive ? `不能大于${n}` : `必须小于${n}`;
    }
    case 'invalid_format':
      return '格式不正确';
    case 'invalid_value':
      return issue.values.length === 1 ? `只能是${shown(issue.values[0])}` : `只能是以下之一：${issue.values.map(shown).join('、')}`;
    case 'not_multiple_of':
      return `必须是${String(issue.divisor)}的倍数`;
    case 'unrecognized_keys':
      return `不支持的字段：${issue.keys.join('、')}`;
    case 'invalid_union':
      return '格式不正确';
    default:
      return undefined;
  }
}
