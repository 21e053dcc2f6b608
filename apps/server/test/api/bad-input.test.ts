/**
 * Drill: every route of the API (read from the OpenAPI document, so a new route is covered without
 * touching this file) gets missing, wrongly typed, huge and hostile values, ids of another hub, a 16 MB
 * body and wrong content types. Every answer must be a success or a 4xx with a JSON `message`: never a
 * 5xx, never a hang. Then every file of the shared corpus, damaged in several deterministic ways, goes
 * through upload → parse → check and gets a verdict.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomer } from '../../src/db/seed/customers.ts';
import { startApp } from '../helpers/app.ts';
import { findSku } from '../helpers/catalogue.ts';
import { CORPUS, corpusFile } from '../helpers/corpus.ts';
import { multipart, prng, rawRequest, usePostgres } from '../helpers/drill.ts';
import { pollTask, uploadFile } from '../helpers/upload.ts';
import { makeZip } from '../helpers/zips.ts';

// ---------------------------------------------------------------- the API as the server describes it

type Schema = {
  type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; enum?: unknown[];
  minLength?: number; maxLength?: number; pattern?: string; minimum?: number; maximum?: number; exclusiveMinimum?: boolean;
  minItems?: number; maxItems?: number; default?: unknown;
};
type Param = { name: string; in: 'path' | 'query'; required?: boolean; schema: Schema };
type Op = { method: string; path: string; params: Param[]; body: Schema | null; multipart: boolean; isPublic: boolean };
type OpenApi = { paths: Record<string, Record<string, { parameters?: Param[]; requestBody?: { content: Record<string, { schema: Schema }> }; security?: unknown[] }>> };

const unmark = await usePostgres();
// Failed logins of the drill must not lock the drill's own logins out.
const t = await startApp('postgres', { LOGIN_MAX_FAILURES: '1000' });
afterAll(async () => {
  await t.close();
  await unmark();
}, 120_000);

const doc = (await (await t.call('GET', '/api/docs/json')).json()) as OpenApi;
const PUBLIC = new Set(['POST /api/authenticate', 'GET /api/health']);
const ops: Op[] = Object.entries(doc.paths).flatMap(([p, methods]) => Object.entries(methods).map(([m, op]): Op => ({
  method: m.toUpperCase(),
  path: p,
  params: (op.parameters ?? []).filter((x) => x.in === 'path' || x.in === 'query'),
  body: op.requestBody?.content['application/json']?.schema ?? null,
  multipart: p === '/api/files/updateFile',
  isPublic: PUBLIC.has(`${m.toUpperCase()} ${p}`) || /\/api\/(templates|files\/raw|files\/preview)\//.test(p),
})))
  // The deleting route last, so the files the other routes are tried on are still there.
  .sort((a, b) => Number(a.path.includes('delete')) - Number(b.path.includes('delete')));

// ---------------------------------------------------------------- values

/** Hostile paths: all of them must be refused (4xx) wherever a path is expected. */
const HOSTILE_PATHS = [
  '..', '.', '../../jwt-secret', 'upload/../../jwt-secret', 'upload/x/../../../jwt-secret', '%2e%2e/%2e%2e/jwt-secret', 'upload/%2e%2e/%2e%2e/x',
  'upload/x/\u0000.jpg', 'upload/x/%00.jpg', '/etc/passwd', 'C:\\Windows\\win.ini', 'C:/Windows/win.ini', 'upload\\..\\..\\jwt-secret',
  '\\\\server\\share\\x.jpg', 'upload//x.jpg', 'upload/./x.jpg', '.previews/x.jpg', '.chunks/1', '.originals/x.jpg', 'jwt-secret', 'pglite/PG_VERSION',
  '../2/upload/x.jpg', '', ' ', `upload/${'a/'.repeat(600)}x.jpg`,
];
/** The same, as they would appear raw in a URL path (each sent byte for byte). */
const HOSTILE_RAW_SEGMENTS = [
  '..%2f..%2fjwt-secret', '%2e%2e/%2e%2e/jwt-secret', '%2E%2E%2F%2E%2E%2Fjwt-secret', '..%5c..%5cjwt-secret', 'upload/..%5c..%5cjwt-secret', 'upload/%00.jpg',
  '%2fetc%2fpasswd', '/etc/passwd', '..', 'upload/./x.jpg', 'upload/%2e/x.jpg', '%c0%ae%c0%ae/jwt-secret', 'jwt-secret', 'pglite/PG_VERSION', '.chunks/1',
  '../../../../etc/passwd', `${'a'.repeat(3000)}.jpg`,
];
const HOSTILE_TEXT = [
  "' or 1=1 --", '"; drop table users; --', '<script>alert(1)</script>', '\u0000', 'a\u0000b', '%00', '%', '_', '\\', '\ud800', '𠜎𠜱', '\u202egpj.exe',
  '${jndi:ldap://x/a}', '{{7*7}}', '\r\nX-Injected: 1', '../../etc/passwd', ' ', '',
];
const NUMBERS_AS_TEXT = ['abc', '1.5', '-1', '0', '1e309', '99999999999999999999999', 'NaN', '２', '1;drop table x', '0x10', ''];
const NUMBERS_AS_JSON: unknown[] = ['abc', '1', true, null, {}, [], 1.5, -1, 0, 1e308, Number.MAX_SAFE_INTEGER + 2];
const WRONG_JSON: unknown[] = [123, true, null, {}, ['a'], 'abc', 1.5, -1];
const PATH_LIKE = new Set(['filePath', 'path', 'accessPath', '*', 'fileNames']);

/** Whether zod would accept a value for this schema; numbers as zod's coerce reads them (so never a false "must refuse"). */
function accepts(s: Schema, v: unknown): boolean {
  if (v === null && (s as { nullable?: boolean }).nullable) return true;
  if (s.anyOf) return s.anyOf.some((x) => accepts(x, v));
  if (s.enum && !s.enum.includes(v)) return false;
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') return false;
      if (s.maxLength !== undefined && v.length > s.maxLength) return false;
      if (s.minLength !== undefined && v.trim().length < s.minLength) return false;
      return !s.pattern || new RegExp(s.pattern).test(v);
    case 'integer':
    case 'number': {
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n) || (s.type === 'integer' && !Number.isSafeInteger(n))) return false;
      if (s.minimum !== undefined && (s.exclusiveMinimum ? n <= s.minimum : n < s.minimum)) return false;
      return s.maximum === undefined || n <= s.maximum;
    }
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v) && v.length >= (s.minItems ?? 0) && v.length <= (s.maxItems ?? Infinity) && v.every((x) => !s.items || accepts(s.items, x));
    case 'object':
      return !!v && typeof v === 'object' && !Array.isArray(v) && (s.required ?? []).every((k) => k in v)
        && Object.entries(v).every(([k, x]) => !s.properties?.[k] || accepts(s.properties[k]!, x));
    default:
      return true;
  }
}

type World = {
  demo: string; partial: string; customerId: number; otherCustomerId: number; file: string; spare: string; otherFile: string;
  work: { uuid: string; filePath: string; fileName: string }; otherWork: { uuid: string; filePath: string }; taskId: string; otherTaskId: string;
  productId: number; propertyConfigId: number; provinceId: number; cityId: number; template: { componentId: string; fileName: string; exp: string; sig: string };
};
let w: World;

/** A valid value for a field of this name (real ids and paths of hub 1), else one made from its schema. */
function good(name: string, s: Schema, op: Op): unknown {
  const known: Record<string, unknown> = {
    customerHubId: 1, hubId: 1, entityId: w.customerId, customerId: w.customerId, productId: w.productId, propertyConfigId: w.propertyConfigId,
    filePath: op.path.includes('deleteFile') ? w.spare : w.file, path: w.file, '*': w.file, accessPath: w.work.filePath, fileNames: [w.work.fileName],
    workUuid: w.work.uuid, uuid: w.work.uuid, taskId: w.taskId, componentId: w.template.componentId, exp: w.template.exp, sig: w.template.sig,
    provinceId: w.provinceId, cityId: w.cityId, username: 'badinput', password: 'badinput-pw', idempotencyKey: `drill-${randomUUID()}`, priceType: 'customer',
    fileName: op.path.includes('/templates/') ? w.template.fileName : undefined, quantity: 1, articleName: '作品',
  };
  if (known[name] !== undefined) return known[name];
  return sample(s, op);
}

function sample(s: Schema, op: Op): unknown {
  if (s.default !== undefined) return s.default;
  if (s.anyOf) return sample(s.anyOf[0]!, op);
  if (s.enum) return s.enum[0];
  switch (s.type) {
    case 'string': return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer': case 'number': return Math.max(1, s.minimum ?? 1);
    case 'boolean': return true;
    case 'array': return s.minItems ? [sample(s.items ?? {}, op)] : [];
    case 'object': return Object.fromEntries((s.required ?? []).map((k) => [k, good(k, s.properties?.[k] ?? {}, op)]));
    default: return 'x';
  }
}

/** Values of another hub: a hub-1 caller naming them must be refused (403) or not find them (404). */
function otherHub(name: string): unknown {
  const other: Record<string, unknown> = {
    customerHubId: 2, hubId: 2, entityId: w.otherCustomerId, customerId: w.otherCustomerId, taskId: w.otherTaskId, workUuid: w.otherWork.uuid,
    uuid: w.otherWork.uuid, filePath: w.otherFile, path: w.otherFile, '*': w.otherFile, accessPath: w.otherWork.filePath,
  };
  return other[name];
}

// ---------------------------------------------------------------- requests and what an answer must be

type Expect = 'refuse' | 'any';
type Req = { label: string; expect: Expect; method: string; path: string; headers?: Record<string, string>; body?: Buffer | string };

/** encodeURIComponent, but a lone surrogate (which it refuses) is sent as the bytes of one, for the server to cope with. */
const enc = (v: string) => Array.from(v).map((ch) => (/^[\ud800-\udfff]$/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');

function urlOf(op: Op, pathValues: Record<string, string>, query: Record<string, string>) {
  let p = op.path;
  for (const [k, v] of Object.entries(pathValues)) p = p.replace(`{${k}}`, v);
  const q = Object.entries(query).map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  return q ? `${p}?${q}` : p;
}
const encodePathValue = (name: string, v: unknown) => (name === '*' ? String(v).split('/').map(enc).join('/') : enc(String(v)));

function requestsFor(op: Op): Req[] {
  const out: Req[] = [];
  const auth = { authorization: `Bearer ${w.demo}` };
  const baseParams = () => {
    const pathValues: Record<string, string> = {};
    const query: Record<string, string> = {};
    for (const p of op.params) {
      if (p.in === 'path') pathValues[p.name] = encodePathValue(p.name, good(p.name, p.schema, op));
      else if (p.required || ['exp', 'sig'].includes(p.name) && op.path.includes('/templates/')) query[p.name] = String(good(p.name, p.schema, op));
    }
    return { pathValues, query };
  };
  const baseBody = () => (op.body ? (sample(op.body, op) as Record<string, unknown>) : undefined);
  const json = (label: string, expect: Expect, body: unknown, params = baseParams(), headers: Record<string, string> = {}): Req => ({
    label, expect, method: op.method, path: urlOf(op, params.pathValues, params.query),
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

  out.push(json('baseline', 'any', baseBody()));

  // Parameters in the path and the query.
  for (const p of op.params) {
    const withValue = (label: string, expect: Expect, value: string | undefined, raw = false) => {
      const params = baseParams();
      const target = p.in === 'path' ? params.pathValues : params.query;
      if (value === undefined) delete target[p.name];
      else target[p.name] = p.in === 'path' ? (raw ? value : encodePathValue(p.name, value)) : value;
      if (p.in === 'path' && value === undefined) target[p.name] = '';
      out.push(json(`${p.in} ${p.name} ${label}`, expect, baseBody(), params));
    };
    // A path parameter cannot be left out, only left empty; a name the schema allows empty is not a refusal.
    if (p.required) withValue('missing', p.in === 'path' && accepts(p.schema, '') ? 'any' : 'refuse', undefined);
    if (p.schema.type === 'integer' || p.schema.type === 'number') {
      for (const v of NUMBERS_AS_TEXT) withValue(`= ${JSON.stringify(v)}`, accepts(p.schema, v) ? 'any' : 'refuse', v);
    } else if (PATH_LIKE.has(p.name)) {
      for (const v of HOSTILE_PATHS) withValue(`= ${JSON.stringify(v.slice(0, 40))}`, 'refuse', v);
      if (p.in === 'path') for (const v of HOSTILE_RAW_SEGMENTS) withValue(`raw ${JSON.stringify(v.slice(0, 40))}`, 'refuse', v, true);
    } else {
      for (const v of HOSTILE_TEXT) withValue(`= ${JSON.stringify(v)}`, accepts(p.schema, v) ? 'any' : 'refuse', v);
    }
    const huge = 'a'.repeat(p.schema.maxLength !== undefined ? p.schema.maxLength + 1 : 8000);
    withValue(`huge (${huge.length})`, accepts(p.schema, huge) ? 'any' : 'refuse', huge);
    const other = otherHub(p.name);
    if (other !== undefined) withValue('of hub 2', 'refuse', String(other));
  }

  // Fields of a JSON body, and fields of the first element of arrays of objects.
  if (op.body) {
    const fields: Array<{ label: string; schema: Schema; required: boolean; set: (b: Record<string, unknown>, v: unknown) => void; drop: (b: Record<string, unknown>) => void; name: string; nested: boolean }> = [];
    for (const [k, s] of Object.entries(op.body.properties ?? {})) {
      fields.push({ label: k, name: k, schema: s, required: (op.body.required ?? []).includes(k), set: (b, v) => { b[k] = v; }, drop: (b) => { delete b[k]; }, nested: false });
      if (s.type === 'array' && s.items?.type === 'object') {
        for (const [k2, s2] of Object.entries(s.items.properties ?? {})) {
          const first = (b: Record<string, unknown>) => {
            if (!Array.isArray(b[k]) || !(b[k] as unknown[]).length) b[k] = [sample(s.items!, op)];
            return (b[k] as Array<Record<string, unknown>>)[0]!;
          };
          fields.push({ label: `${k}[0].${k2}`, name: k2, schema: s2, required: (s.items.required ?? []).includes(k2), set: (b, v) => { first(b)[k2] = v; }, drop: (b) => { delete first(b)[k2]; }, nested: true });
        }
      }
    }
    for (const f of fields) {
      const variant = (label: string, expect: Expect, change: (b: Record<string, unknown>) => void) => {
        const b = baseBody()!;
        change(b);
        out.push(json(`body ${f.label} ${label}`, expect, b));
      };
      if (f.required) variant('missing', 'refuse', f.drop);
      const isNumber = f.schema.type === 'integer' || f.schema.type === 'number';
      for (const v of isNumber ? NUMBERS_AS_JSON : WRONG_JSON) variant(`= ${JSON.stringify(v)}`, accepts(f.schema, v) ? 'any' : 'refuse', (b) => f.set(b, v));
      if (f.schema.type === 'string' || f.schema.anyOf?.some((x) => x.type === 'string') || f.schema.items?.type === 'string') {
        const wrap = (v: string) => (f.schema.type === 'array' ? [v] : v);
        // A path names a file the route acts on; inside a list (an order's works) it is an echo the server replaces with its own.
        const names = PATH_LIKE.has(f.name) && !f.nested;
        for (const v of PATH_LIKE.has(f.name) ? HOSTILE_PATHS : HOSTILE_TEXT) variant(`= ${JSON.stringify(v.slice(0, 40))}`, names ? 'refuse' : accepts(f.schema, wrap(v)) ? 'any' : 'refuse', (b) => f.set(b, wrap(v)));
        const huge = wrap('a'.repeat(100_000));
        variant('huge (100000)', accepts(f.schema, huge) ? 'any' : 'refuse', (b) => f.set(b, huge));
      }
      if (f.schema.type === 'array') {
        const many = Array.from({ length: (f.schema.maxItems ?? 20_000) + 1 }, () => (f.schema.items ? sample(f.schema.items, op) : 'x'));
        variant(`with ${many.length} items`, accepts(f.schema, many) ? 'any' : 'refuse', (b) => f.set(b, many));
      }
      const other = otherHub(f.name);
      if (other !== undefined && !(f.nested && PATH_LIKE.has(f.name))) variant('of hub 2', 'refuse', (b) => f.set(b, other));
    }
  }

  // The body as a whole, and its content type.
  if (op.method !== 'GET' && !op.multipart) {
    const valid = JSON.stringify(baseBody() ?? {});
    out.push(json('no body', 'refuse', undefined));
    for (const raw of ['', 'null', '[]', '"x"', '123', '{"a":', '{"a":1}}', `${'['.repeat(50_000)}${']'.repeat(50_000)}`, `{"__proto__":{"polluted":1},${valid.slice(1)}`, `{"constructor":{"prototype":{"polluted":1}},${valid.slice(1)}`]) {
      const isValid = (() => {
        try {
          return accepts(op.body ?? {}, JSON.parse(raw));
        } catch {
          return false;
        }
      })();
      out.push(json(`body ${JSON.stringify(raw.slice(0, 30))}`, isValid ? 'any' : 'refuse', raw));
    }
    // Past every route's own bound but the draft's (whose schema refuses the filler): the name check takes 12 MB.
    out.push(json('body of 16 MB', 'refuse', JSON.stringify({ ...JSON.parse(valid), filler: 'a'.repeat(16 * 1024 * 1024) })));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream']) {
      out.push(json(`content-type ${type}`, 'refuse', valid, baseParams(), { 'content-type': type }));
    }
    out.push(json('content-type json; charset=utf-16', 'any', valid, baseParams(), { 'content-type': 'application/json; charset=utf-16' }));
  }

  // Without a login, and with a broken token, where a login is needed.
  if (!op.isPublic) {
    for (const [label, value] of [['no token', ''], ['broken token', 'Bearer x.y.z'], ['not a bearer', 'Basic ZGVtbzpkZW1v']] as const) {
      const r = json(label, 'refuse', baseBody());
      r.headers = { ...r.headers };
      if (value) r.headers.authorization = value;
      else delete r.headers.authorization;
      out.push(r);
    }
  }
  return out;
}

/** The multipart upload route: its fields are not in the OpenAPI document, so they are listed here. */
async function uploadRequests(): Promise<Req[]> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
  const auth = { authorization: `Bearer ${w.demo}` };
  const fields = () => ({ identifier: `id-${randomUUID()}`, chunkIndex: '1', chunkTotal: '1', size: String(png.length), filePath: 'bad/x.png', ext: 'png', folderId: randomUUID() });
  const out: Req[] = [];
  const form = async (label: string, expect: Expect, f: Record<string, string | undefined>, file: Buffer | null = png, opts: { fileFirst?: boolean; twoFiles?: boolean; extraFields?: number } = {}) => {
    const fd = new FormData();
    if (file && opts.fileFirst) fd.append('file', new Blob([new Uint8Array(file)]), 'blob');
    for (const [k, v] of Object.entries(f)) if (v !== undefined) fd.append(k, v);
    for (let i = 0; i < (opts.extraFields ?? 0); i++) fd.append(`extra${i}`, 'x');
    if (file && !opts.fileFirst) fd.append('file', new Blob([new Uint8Array(file)]), 'blob');
    if (file && opts.twoFiles) fd.append('file2', new Blob([new Uint8Array(file)]), 'blob');
    const m = await multipart(fd);
    out.push({ label, expect, method: 'POST', path: '/api/files/updateFile', headers: { ...auth, 'content-type': m.contentType }, body: m.body });
  };
  await form('baseline', 'any', fields());
  for (const k of ['identifier', 'chunkIndex', 'chunkTotal', 'size', 'filePath', 'folderId']) await form(`${k} missing`, 'refuse', { ...fields(), [k]: undefined });
  await form('ext missing', 'any', { ...fields(), ext: undefined });
  for (const k of ['chunkIndex', 'chunkTotal', 'size']) {
    for (const v of ['abc', '-1', '0', '1.5', '1e309', '99999999999999999999', '', ' ']) await form(`${k} = ${JSON.stringify(v)}`, 'refuse', { ...fields(), [k]: v });
  }
  await form('chunkIndex beyond chunkTotal', 'refuse', { ...fields(), chunkIndex: '2' });
  await form('size larger than sent', 'refuse', { ...fields(), size: String(png.length + 10) });
  await form('size of 1e15', 'refuse', { ...fields(), size: '1000000000000000' });
  const hostileNames = ['../../x.png', 'a/../../x.png', '/etc/x.png', 'a\\..\\x.png', 'a/\u0000.png', 'C:/x.png', '..', 'x.exe', 'x.png.exe', `${'长'.repeat(300)}.png`, `${'a/'.repeat(400)}x.png`];
  for (const v of [...HOSTILE_PATHS, ...hostileNames]) await form(`filePath = ${JSON.stringify(v.slice(0, 40))}`, 'refuse', { ...fields(), filePath: v, ext: 'png' });
  for (const v of ['..', '../x', 'a/b', '%2e%2e', 'a\u0000', 'x'.repeat(65), '中文', '']) await form(`folderId = ${JSON.stringify(v)}`, 'refuse', { ...fields(), folderId: v });
  for (const v of ['a'.repeat(5000), '']) await form(`identifier of ${v.length}`, 'refuse', { ...fields(), identifier: v });
  await form('ext exe', 'refuse', { ...fields(), ext: 'exe' });
  await form('no file part', 'refuse', fields(), null);
  await form('an empty file', 'refuse', { ...fields(), size: '1' }, Buffer.alloc(0));
  await form('the file before the fields', 'refuse', fields(), png, { fileFirst: true });
  // Parts after the chunk's file are read and ignored (docs/decisions.md, Upload).
  await form('two files', 'any', fields(), png, { twoFiles: true });
  await form('50 fields', 'refuse', fields(), png, { extraFields: 50 });
  const big = Buffer.alloc(5 * 1024 * 1024, 7);
  await form('a 5 MB chunk', 'refuse', { ...fields(), size: String(big.length) }, big);
  const whole = (await multipart((() => { const fd = new FormData(); for (const [k, v] of Object.entries(fields())) fd.append(k, v); fd.append('file', new Blob([new Uint8Array(png)]), 'blob'); return fd; })()));
  const raw = (label: string, headers: Record<string, string>, body: Buffer | string) => out.push({ label, expect: 'refuse', method: 'POST', path: '/api/files/updateFile', headers: { ...auth, ...headers }, body });
  raw('a JSON body', { 'content-type': 'application/json' }, JSON.stringify(fields()));
  raw('text/plain', { 'content-type': 'text/plain' }, 'hello');
  raw('multipart without a boundary', { 'content-type': 'multipart/form-data' }, whole.body);
  raw('multipart with another boundary', { 'content-type': 'multipart/form-data; boundary=nothere' }, whole.body);
  raw('multipart cut in the middle', { 'content-type': whole.contentType }, whole.body.subarray(0, Math.floor(whole.body.length * 0.6)));
  raw('10 MB of junk as multipart', { 'content-type': whole.contentType }, Buffer.alloc(10 * 1024 * 1024, 0x41));
  raw('no token', { authorization: '', 'content-type': whole.contentType }, whole.body);
  return out;
}

/** What is wrong with an answer, or null. */
function problem(r: Req, res: { status: number; headers: Record<string, unknown>; text: string; ms: number }): string | null {
  if (res.status === 0) return `no answer (${res.text})`;
  if (res.status >= 500) return `answered ${res.status}: ${res.text.slice(0, 200)}`;
  if (r.expect === 'refuse' && res.status < 400) return `accepted (${res.status}): ${res.text.slice(0, 120)}`;
  if (res.status >= 400) {
    if (!String(res.headers['content-type'] ?? '').includes('application/json')) return `answered ${res.status} without JSON: ${res.text.slice(0, 120)}`;
    let body: { message?: unknown };
    try {
      body = JSON.parse(res.text) as { message?: unknown };
    } catch {
      return `answered ${res.status} with broken JSON: ${res.text.slice(0, 120)}`;
    }
    const m = body.message;
    const text = typeof m === 'string' ? m : m && typeof m === 'object' ? (m as { error?: unknown }).error : undefined;
    if (typeof text !== 'string' || !text.trim()) return `answered ${res.status} without a message: ${res.text.slice(0, 120)}`;
  }
  return null;
}

// ---------------------------------------------------------------- the world the requests act on

beforeAll(async () => {
  const demo = await t.login('demo', 'demo');
  const partial = await t.login('partial', 'partial');
  await addCustomer(t.db.db, { hub: 1, login: 'badinput', password: 'badinput-pw', customer: '演示客户' });
  const account = async (token: string) => (await (await t.call('GET', '/api/account', { token })).json()) as { customerId: number };
  const jpeg = await sharp({ create: { width: 1500, height: 1051, channels: 3, background: '#cc8844' } }).jpeg().withMetadata({ density: 300 }).toBuffer();
  const up = async (token: string, p: string, bytes: Buffer = jpeg) => {
    const r = await uploadFile(t, token, bytes, p);
    if (!r.done?.body.message.filePath) throw new Error(`upload of ${p}: ${JSON.stringify(r.last.body)}`);
    return r.done.body.message.filePath;
  };
  const parse = async (token: string, filePath: string) => (await (await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(filePath)}`, { token })).json()) as
    { state: number; message: { works: Array<{ uuid: string; filePath: string; fileName: string }>; taskId: string } };
  const file = await up(demo, '坏输入/照片.jpg');
  const spare = await up(demo, '坏输入/备用.jpg');
  const otherFile = await up(partial, '别家/照片.jpg');
  const work = (await parse(demo, file)).message.works[0]!;
  const otherWork = (await parse(partial, otherFile)).message.works[0]!;
  const zip = await makeZip([['A/1.jpg', jpeg], ['A/2.jpg', jpeg]]);
  const taskId = (await parse(demo, await up(demo, '坏输入.zip', zip))).message.taskId;
  const otherTaskId = (await parse(partial, await up(partial, '别家.zip', zip))).message.taskId;
  const sku = await findSku(t, demo, 'PH-5');
  const tpl = /\/api\/templates\/(\d+)\/([^?"]+)\?exp=(\d+)&sig=([^&"]+)/.exec(JSON.stringify(sku.product)) ?? /\/api\/templates\/(\d+)\/([^?"]+)\?exp=(\d+)&sig=([^&"]+)/.exec(JSON.stringify((await findSku(t, demo, 'BR-A4')).product));
  const provinces = (await (await t.call('GET', '/api/location-provinces', { token: demo })).json()) as Array<{ id: number }>;
  const cities = (await (await t.call('GET', `/api/location-cities/findByProvince?provinceId=${provinces[0]!.id}`, { token: demo })).json()) as Array<{ id: number }>;
  w = {
    demo, partial, customerId: (await account(demo)).customerId, otherCustomerId: (await account(partial)).customerId, file, spare, otherFile,
    work: { uuid: work.uuid, filePath: work.filePath, fileName: work.fileName }, otherWork, taskId, otherTaskId,
    productId: sku.productId, propertyConfigId: sku.propertyConfigId, provinceId: provinces[0]!.id, cityId: cities[0]!.id,
    template: { componentId: tpl?.[1] ?? '1', fileName: decodeURIComponent(tpl?.[2] ?? 'x.pdf'), exp: tpl?.[3] ?? '0', sig: tpl?.[4] ?? 'x' },
  };
}, 120_000);

describe('every route refuses bad input with a 4xx and a message, never a 5xx or a hang', () => {
  it('reads the routes from the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThanOrEqual(25);
    expect(ops.map((o) => `${o.method} ${o.path}`)).toContain('POST /api/files/updateFile');
  });

  it.each(ops.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (_name, op) => {
    const requests = op.multipart ? await uploadRequests() : requestsFor(op);
    const problems: string[] = [];
    for (const r of requests) {
      const res = await rawRequest(t.url, r.path, { method: r.method, headers: r.headers ?? {}, ...(r.body === undefined ? {} : { body: r.body }), timeoutMs: 15_000 });
      const p = problem(r, res);
      if (p) problems.push(`${r.label}: ${p}`);
    }
    expect(problems, `${problems.length} of ${requests.length} answers are wrong`).toEqual([]);
    // The server is still up.
    expect((await t.call('GET', '/api/health')).status).toBe(200);
  }, 120_000);
});

// ---------------------------------------------------------------- fuzz: damaged files end to end

const MUTATIONS = 5;
const corpusFiles = ['images', 'orientation', 'pdf', 'damaged', 'zip'].flatMap((d) => readdirSync(path.join(CORPUS, d)).sort().map((n) => `${d}/${n}`));

function mutate(bytes: Buffer, seed: number, m: number): { bytes: Buffer; how: string } {
  const r = prng(seed);
  const b = Buffer.from(bytes);
  const xor = (buf: Buffer, at: number, mask: number) => {
    buf[at] = buf[at]! ^ mask;
  };
  const flip = (n: number, within = b.length) => {
    for (let i = 0; i < n && b.length; i++) xor(b, r.int(Math.min(within, b.length)), 1 + r.int(255));
  };
  switch (m) {
    case 0: flip(8); return { bytes: b, how: 'flipped 8 bytes' };
    case 1: { const at = 1 + r.int(Math.max(1, b.length - 1)); return { bytes: b.subarray(0, at), how: `cut at ${at}` }; }
    case 2: return { bytes: Buffer.concat([b, r.bytes(1024 + r.int(3072))]), how: 'junk appended' };
    case 3: flip(64, 1024); return { bytes: b, how: 'flipped 64 bytes of the head' };
    default: { const at = 1 + r.int(Math.max(1, b.length - 1)); const c = b.subarray(0, at); for (let i = 0; i < 16; i++) xor(c, r.int(c.length), 0xff); return { bytes: c, how: `cut at ${at} and flipped 16 bytes` }; }
  }
}

describe('fuzz: damaged corpus files through upload → parse → check', () => {
  it(`gives each of ${corpusFiles.length} × ${MUTATIONS} damaged files a verdict and never a 5xx`, async () => {
    const flyer = await findSku(t, w.demo, 'FL-A4');
    const photo = await findSku(t, w.demo, 'PH-5');
    const problems: string[] = [];
    const verdicts = { refusedAtUpload: 0, refusedAtParse: 0, taskFailed: 0, checkedPass: 0, checkedFail: 0, noWork: 0 };
    const cases = corpusFiles.flatMap((f, fi) => Array.from({ length: MUTATIONS }, (_, m) => ({ f, fi, m })));

    const one = async ({ f, fi, m }: { f: string; fi: number; m: number }) => {
      const { bytes, how } = mutate(corpusFile(f), 1000 + fi, m);
      const name = `fuzz${m}/${path.basename(f)}`;
      const where = `${f} (${how})`;
      const up = await uploadFile(t, w.demo, bytes, name).catch((err: Error) => ({ last: { status: 0, body: { state: 0, message: { status: 0, error: String(err) } } }, done: undefined }));
      if (!up.done) {
        const { status, body } = up.last;
        if (status >= 500 || status === 0) problems.push(`${where}: upload answered ${status} ${JSON.stringify(body)}`);
        else if (status < 400 || !body.message.error) problems.push(`${where}: upload neither stored nor refused with a message: ${status} ${JSON.stringify(body)}`);
        else verdicts.refusedAtUpload++;
        return;
      }
      const filePath = up.done.body.message.filePath!;
      const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(filePath)}`, { token: w.demo });
      const text = await res.text();
      if (res.status >= 500) return void problems.push(`${where}: parse answered ${res.status} ${text}`);
      if (res.status >= 400) {
        if (!(JSON.parse(text) as { message?: string }).message) problems.push(`${where}: parse refused without a message: ${text}`);
        else verdicts.refusedAtParse++;
        return;
      }
      const parsed = JSON.parse(text) as { state: number; message: { works?: Array<{ uuid: string; filePath: string; files: Array<{ fileName: string }> }>; taskId?: string } };
      let works = parsed.message.works ?? [];
      if (parsed.state === 100) {
        const task = await pollTask(t, w.demo, parsed.message.taskId!, 60_000);
        if (task.message.status === 'running') return void problems.push(`${where}: the parse task did not end within 60 s`);
        if (task.message.status === 'failed') {
          if (!task.message.error) problems.push(`${where}: the parse task failed without a reason`);
          else verdicts.taskFailed++;
          return;
        }
        works = (task.message.jsonContent?.works ?? []) as typeof works;
      }
      if (!works.length) return void verdicts.noWork++;
      for (const work of works) {
        const sku = work.files.some((x) => x.fileName.toLowerCase().endsWith('.pdf')) ? flyer : photo;
        const c = await t.call('POST', '/api/sales_order/checkFile', { token: w.demo, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: work.filePath, workUuid: work.uuid, checkNumberOfPages: true } });
        const body = (await c.json()) as { state: number; message: { messages?: Array<{ message: string }>; message?: { fileCheckResult: Array<{ pass: boolean; reason: string | null }> } } };
        if (c.status !== 200) return void problems.push(`${where}: checkFile answered ${c.status} ${JSON.stringify(body)}`);
        if (body.state === 200) verdicts.checkedPass++;
        else if (body.state === 400) {
          const rows = body.message.message?.fileCheckResult ?? [];
          const silent = rows.filter((x) => !x.pass && !x.reason);
          if (!body.message.messages?.length || silent.length) problems.push(`${where}: the check failed without a reason for each failing row: ${JSON.stringify(body).slice(0, 300)}`);
          else verdicts.checkedFail++;
        } else problems.push(`${where}: checkFile answered state ${body.state}`);
      }
    };
    // Three at a time, as a browser would send them.
    for (let i = 0; i < cases.length; i += 3) await Promise.all(cases.slice(i, i + 3).map(one));

    expect(problems, `${problems.length} of ${cases.length} damaged files got no proper verdict`).toEqual([]);
    expect((await t.call('GET', '/api/health')).status).toBe(200);
    console.info(`[bad-input] fuzz: ${cases.length} damaged files: ${JSON.stringify(verdicts)}`);
  }, 240_000);
});
