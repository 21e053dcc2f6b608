/**
 * The portal's own lint rules, an oxlint JS plugin (.oxlintrc.json `jsPlugins`; ESLint's rule API).
 *
 * portal/feature-doors (issue #18 item 4, ../shared/style.md 14): the web app's features meet through a door. The app's
 * code outside a feature (another feature, app/) imports it only through `features/<name>/index.ts`; a page the router loads
 * lazily comes through `features/<name>/lazy.ts`, by `import()` only, so that it stays in its own chunk. The rule
 * resolves each relative import against the file that makes it: `../api/x.ts` is the feature's own folder in one file
 * and another feature's insides in the next, which a rule on the import's text (no-restricted-imports) cannot tell.
 */
import path from 'node:path';

/** A path's feature, for a path under some `src/features/<name>/`: its root, its name and the path inside it; else null. */
function featureOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('features');
  if (at < 1 || parts[at - 1] !== 'src' || parts.length < at + 3) return null;
  return { root: parts.slice(0, at + 1).join(path.sep), name: parts[at + 1], inside: parts.slice(at + 2).join('/') };
}

const featureDoors = {
  meta: {
    type: 'problem',
    docs: { description: 'Another feature is imported only through its index.ts (or, by import(), its lazy.ts).' },
    messages: {
      door: '{{spec}} reaches into the feature "{{feature}}" past its door: import it from its index.ts{{lazy}}',
    },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename ?? context.filename;
    const own = featureOf(file);
    const check = (node, dynamic) => {
      const spec = node?.type === 'Literal' ? node.value : null;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = featureOf(path.resolve(path.dirname(file), spec));
      // Only the app's own code: a test from outside (e2e/) may check a feature's functions.
      if (!target || !file.startsWith(path.dirname(target.root) + path.sep)) return;
      if (own && own.root === target.root && own.name === target.name) return;
      if (target.inside === 'index.ts' || (dynamic && target.inside === 'lazy.ts')) return;
      context.report({ node, messageId: 'door', data: { spec, feature: target.name, lazy: dynamic ? ' or lazy.ts' : '' } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, false),
      ExportNamedDeclaration: (node) => node.source && check(node.source, false),
      ExportAllDeclaration: (node) => check(node.source, false),
      ImportExpression: (node) => check(node.source, true),
      // vi.mock('…') names a module too.
      CallExpression: (node) => {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'vi'
          && callee.property.type === 'Identifier' && callee.property.name === 'mock') check(node.arguments[0], false);
      },
    };
  },
};

export default { meta: { name: 'portal' }, rules: { 'feature-doors': featureDoors } };
