/**
 * The public entry of features/suggest: 推荐产品 (issue #20 item 3), the products the works without one
 * fit as they are, and 按推荐匹配. Other features and app/ import only this.
 */
export { SuggestPanel } from './components/SuggestPanel.tsx';
