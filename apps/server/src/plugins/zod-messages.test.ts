import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainIssueMessage } from './zod-messages.ts';

const messageOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value, { error: plainIssueMessage });
  return r.success ? null : r.error.issues[0]!.message;
};

describe('plainIssueMessage', () => {
  it.each<[string, z.ZodType, unknown, string]>([
    ['an integer given 1.5', z.number().int(), 1.5, '必须是整数'],
    ['a number given text', z.number(), '0.68', '必须是数字'],
    ['a number given an infinite one', z.number(), Number.POSITIVE_INFINITY, '必须是有限的数字'],
    ['a number given NaN', z.number(), Number.NaN, '必须是有限的数字'],
    ['a missing field', z.object({ a: z.string() }), {}, '缺少此项'],
    ['null', z.string(), null, '不能为空'],
    ['a list given an object', z.array(z.string()), {}, '必须是列表'],
    ['text given a list', z.string(), ['a'], '必须是文字'],
    ['below an inclusive minimum', z.number().min(0), -0.68, '不能小于0'],
    ['not above an exclusive minimum', z.number().positive(), 0, '必须大于0'],
    ['above a maximum', z.number().max(999999999999.99), 1e308, '不能大于999999999999.99'],
    ['text too short', z.string().min(8), 'abc', '至少8个字符'],
    ['text too long', z.string().max(4), 'abcdef', '不能超过4个字符'],
    ['a list too long', z.array(z.number()).max(2), [1, 2, 3], '不能超过2项'],
    ['a list too short', z.array(z.number()).min(1), [], '至少1项'],
    ['a pattern, not shown', z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), '..', '格式不正确'],
    ['one of a few', z.enum(['fill', 'fit']), 'nuke', '只能是以下之一："fill"、"fit"'],
    ['a literal', z.literal(90), 45, '只能是90'],
    ['a multiple', z.number().multipleOf(90), 45, '必须是90的倍数'],
    ['an unknown field', z.strictObject({ a: z.number() }), { a: 1, b: 2 }, '不支持的字段：b'],
  ])('%s', (_, schema, value, message) => {
    expect(messageOf(schema, value)).toBe(message);
  });

  it('leaves a schema\'s own words alone', () => {
    expect(messageOf(z.number().int('订购数量必须是整数'), 1.5)).toBe('订购数量必须是整数');
  });
});
