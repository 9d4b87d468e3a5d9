// People in one headless browser: each has their own context (cookies kept apart), and every page reports any
// script or style its CSP blocked. They open the assignment as a person does, from the dev platform's course page.
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';

export interface People {
  /** A new page in the person's own browser context. */
  page(who: string): Promise<Page>;
  /** Opens the course in the dev platform and follows the activity link as the named person. */
  openAssignmentAs(who: string, userName: string): Promise<Page>;
  /** What the pages' CSP blocked, by whom. */
  cspErrors: string[];
}

export function browserPeople(browser: Browser, lmsUrl: string): People {
  const contexts = new Map<string, BrowserContext>();
  const cspErrors: string[] = [];
  const page = async (who: string): Promise<Page> => {
    let context = contexts.get(who);
    if (!context) {
      // Dates typed into a page are on the browser's clock: UTC here, whatever the machine's zone, unless a test says otherwise.
      context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
        timezoneId: 'UTC',
      });
      contexts.set(who, context);
    }
    const opened = await context.newPage();
    opened.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text()))
        cspErrors.push(`${who}: ${message.text()}`);
    });
    return opened;
  };
  const openAssignmentAs = async (who: string, userName: string): Promise<Page> => {
    const opened = await page(who);
    await opened.goto(`${lmsUrl}/`);
    await opened.getByRole('link', { name: `open as ${userName}`, exact: true }).click();
    await opened.waitForURL(/\/assignments\//);
    return opened;
  };
  return { page, openAssignmentAs, cspErrors };
}
