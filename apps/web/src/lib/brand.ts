/** The portal's name, shown in the header, on the login card and in the browser tab. */
export const PORTAL_NAME = '印刷自助下单平台';

export function pageTitle(title?: string): string {
  return title ? `${title} - ${PORTAL_NAME}` : PORTAL_NAME;
}
