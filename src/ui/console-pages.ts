import { CONSOLE_PAGES, type ConsolePage } from "./console-model.ts";
import type { PageView } from "./page.ts";
import { BOARD_PAGE } from "./page-board.ts";
import { MAIL_PAGE } from "./page-mail.ts";
import { ROLES_PAGE } from "./page-roles.ts";
import { TEAMMATES_PAGE } from "./page-teammates.ts";

/** The console's pages by id (R61); Tab order is `CONSOLE_PAGES`. */
export const PAGE_VIEWS: Readonly<Record<ConsolePage, PageView>> = {
  teammates: TEAMMATES_PAGE,
  roles: ROLES_PAGE,
  board: BOARD_PAGE,
  mail: MAIL_PAGE,
};

/** The page `step` tabs away from `page` (1 = Tab, -1 = Shift+Tab), wrapping around. */
export function nextPage(page: ConsolePage, step: 1 | -1): ConsolePage {
  const i = CONSOLE_PAGES.indexOf(page);
  const n = CONSOLE_PAGES.length;
  return CONSOLE_PAGES[(i + step + n) % n] ?? page;
}
